import type { KeptOperatorValue, ParticipantEntry, UnmatchedBank } from '@partner-gateway/contract/admin-bank-participants';
import type { BankFieldSource, BankListEntry } from '@partner-gateway/contract/admin-bank-versions';
import { suggestDisplayName } from '../admission/suggest-display-name.js';
import { diffBankLists } from '../bank-list-diff.js';
import { operatorSet } from '../field-sources.js';
import type { ListChange } from '../merge-registry.js';

/** A name match waiting for an operator: the bank, and the participant whose member id it would get. */
export interface NewProposal {
  bic: string;
  bankName: string;
  memberId: string;
  participantName: string;
  participantNameEn: string | null;
}

/** How a reading matched the list (ParticipantsMatching, its proposals not yet stored). */
export interface Matching {
  received: number;
  matchedByBic: number;
  matchedByMemberId: number;
  proposals: NewProposal[];
  unmatchedParticipants: ParticipantEntry[];
  unmatchedBanks: UnmatchedBank[];
  keptOperatorValues: KeptOperatorValue[];
}

/**
 * A bank name as name matching compares it: the suggested display name's rule (legal form and quotes dropped),
 * then lower case, `ё` as `е`, and every run of other than letters and digits as one space.
 *
 * @example
 * ```ts
 * normalizeBankName('АО "Тинькофф Банк"') === normalizeBankName('тинькофф  банк'); // true
 * ```
 */
export function normalizeBankName(name: string): string {
  return suggestDisplayName(name)
    .toLowerCase()
    .replace(/ё/g, 'е')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/**
 * What a participant gives a bank it matched: its member id unless an operator set the bank's (then kept and
 * reported), its Latin name when the bank has none and an operator has not set it, and `participantsListed`.
 */
export function takeParticipant(bank: BankListEntry, entry: Pick<ParticipantEntry, 'memberId' | 'nameEn'>, kept: KeptOperatorValue[], stamp?: BankFieldSource): BankListEntry {
  let next: BankListEntry = { ...bank, participantsListed: true };
  const memberSource = bank.sources?.sbpMemberId?.source;
  if (bank.sbpMemberId === entry.memberId && stamp && memberSource !== 'operator' && memberSource !== 'participants') {
    // The list confirms a member id of unknown or registry source (the shipped list's): it is the participants' now.
    next = { ...next, sources: { ...bank.sources, sbpMemberId: stamp } };
  } else if (bank.sbpMemberId !== entry.memberId) {
    if (operatorSet(bank, 'sbpMemberId')) kept.push({ bic: bank.bic, field: 'sbpMemberId', kept: bank.sbpMemberId, offered: entry.memberId });
    else next = { ...next, sbpMemberId: entry.memberId };
  }
  if (entry.nameEn && bank.nameEn === null) {
    if (operatorSet(bank, 'nameEn')) kept.push({ bic: bank.bic, field: 'nameEn', kept: null, offered: entry.nameEn });
    else next = { ...next, nameEn: entry.nameEn };
  }
  return next;
}

/**
 * Matches the settlement bank's participant list to the bank list, the rule every import and sync of it follows:
 * 1. by BIC: the bank takes the participant's member id (and Latin name when it has none), unless an operator set
 *    them; applied at once;
 *    (a member id the list confirms takes `stamp` as its source, unless an operator set it);
 * 2. by the member id a bank already has (an entry without a listed BIC): the bank is listed;
 * 3. by normalized name (display or registry name), one bank to one entry without a BIC: a proposal, applied only
 *    when an operator confirms it (never for a bank whose member id an operator set, never again once rejected);
 * 4. the rest is unmatched on either side; banks no entry matched are marked not listed (`participantsListed`
 *    false), banks with a proposal keep what they had. Nothing is removed and no name changes.
 * Pure: previewing and applying give the same list.
 *
 * @example
 * ```ts
 * const { next, changes, matching } = matchParticipants(current, entries, new Set());
 * matching.proposals; // [{ bic: '044525999', memberId: '100000000999', participantName: 'Банк Пример', ... }]
 * ```
 */
export function matchParticipants(current: readonly BankListEntry[], entries: readonly ParticipantEntry[], rejected: ReadonlySet<string>, stamp?: BankFieldSource): ListChange & { matching: Matching } {
  const listed = new Set(current.map((bank) => bank.bic));
  const byBic = new Map(entries.filter((entry) => entry.bic !== null).map((entry) => [entry.bic!, entry]));
  const byMember = new Map(entries.filter((entry) => entry.bic === null || !listed.has(entry.bic)).map((entry) => [entry.memberId, entry]));
  const used = new Set<string>();
  const kept: KeptOperatorValue[] = [];
  let matchedByBic = 0;
  let matchedByMemberId = 0;
  const next = current.map((bank) => {
    const entry = byBic.get(bank.bic) ?? (bank.sbpMemberId !== null ? byMember.get(bank.sbpMemberId) : undefined);
    if (!entry || used.has(entry.memberId)) return bank;
    used.add(entry.memberId);
    if (entry.bic === bank.bic) matchedByBic++;
    else matchedByMemberId++;
    return takeParticipant(bank, entry, kept, stamp);
  });
  const matchedBanks = new Set(next.filter((bank, index) => bank !== current[index]).map((bank) => bank.bic));
  const proposals = proposeByName(
    current.filter((bank) => !matchedBanks.has(bank.bic) && !operatorSet(bank, 'sbpMemberId')),
    entries.filter((entry) => !used.has(entry.memberId) && entry.bic === null),
    rejected,
  );
  const proposed = new Set(proposals.map((proposal) => proposal.bic));
  const offered = new Set(proposals.map((proposal) => proposal.memberId));
  const unmatchedBanks: UnmatchedBank[] = [];
  const marked = next.map((bank) => {
    if (matchedBanks.has(bank.bic) || proposed.has(bank.bic)) return bank;
    unmatchedBanks.push({ bic: bank.bic, name: bank.name });
    return bank.participantsListed === false ? bank : { ...bank, participantsListed: false };
  });
  const matching: Matching = {
    received: entries.length,
    matchedByBic,
    matchedByMemberId,
    proposals,
    unmatchedParticipants: entries.filter((entry) => !used.has(entry.memberId) && !offered.has(entry.memberId)),
    unmatchedBanks,
    keptOperatorValues: kept,
  };
  return { next: marked, changes: diffBankLists(current, marked), matching };
}

/** Pairs of one bank and one entry whose normalized names meet, and only each other; a rejected pair is not made again. */
function proposeByName(banks: readonly BankListEntry[], entries: readonly ParticipantEntry[], rejected: ReadonlySet<string>): NewProposal[] {
  const banksByName = new Map<string, Set<BankListEntry>>();
  for (const bank of banks) {
    for (const name of [bank.name, bank.registryName]) {
      if (!name) continue;
      const key = normalizeBankName(name);
      if (!banksByName.has(key)) banksByName.set(key, new Set());
      banksByName.get(key)!.add(bank);
    }
  }
  const candidates = entries.map((entry) => ({ entry, banks: [...(banksByName.get(normalizeBankName(entry.name)) ?? [])] }));
  const entriesPerBank = new Map<string, number>();
  for (const { banks: found } of candidates) for (const bank of found) entriesPerBank.set(bank.bic, (entriesPerBank.get(bank.bic) ?? 0) + 1);
  return candidates
    .filter(({ banks: found }) => found.length === 1 && entriesPerBank.get(found[0]!.bic) === 1)
    .filter(({ entry, banks: found }) => !rejected.has(proposalKey(found[0]!.bic, entry.memberId)))
    .map(({ entry, banks: found }) => ({ bic: found[0]!.bic, bankName: found[0]!.name, memberId: entry.memberId, participantName: entry.name, participantNameEn: entry.nameEn }));
}

/** How a rejected proposal is remembered: the bank and the member id it was offered. */
export function proposalKey(bic: string, memberId: string): string {
  return `${bic}:${memberId}`;
}

/**
 * Confirmed proposals applied: each bank takes its participant's member id and, when it has none, Latin name, and
 * is listed. 404 when a bank left the list since.
 */
export function applyProposals(current: readonly BankListEntry[], proposals: ReadonlyArray<Pick<NewProposal, 'bic' | 'memberId' | 'participantNameEn'>>, missing: (bic: string) => Error): ListChange {
  const byBic = new Map(proposals.map((proposal) => [proposal.bic, proposal]));
  for (const proposal of proposals) if (!current.some((bank) => bank.bic === proposal.bic)) throw missing(proposal.bic);
  const next = current.map((bank) => {
    const proposal = byBic.get(bank.bic);
    // A member id an operator set since the proposal was made stays (no proposal is made for such a bank).
    return proposal ? takeParticipant(bank, { memberId: proposal.memberId, nameEn: proposal.participantNameEn }, []) : bank;
  });
  return { next, changes: diffBankLists(current, next) };
}
