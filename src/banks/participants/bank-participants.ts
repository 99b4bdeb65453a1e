import type { ActorRef } from '@partner-gateway/contract/admin-approvals';
import type { ParticipantEntry, ParticipantProposal, ParticipantsReport, ParticipantsStatus, ProposalRejection } from '@partner-gateway/contract/admin-bank-participants';
import type { BankListChange, BankListEntry, BankListOutcome } from '@partner-gateway/contract/admin-bank-versions';
import { errors } from '../../errors.js';
import type { RequestContext } from '../../request-context.js';
import { authorOf, type BankListService } from '../bank-list-service.js';
import { fieldSource, withSources } from '../field-sources.js';
import { holdReason, type RemovalLimits } from '../sync/removal-guard.js';
import { applyProposals, matchParticipants, proposalKey, type Matching, type NewProposal } from './match-participants.js';
import type { ParticipantRun, ParticipantsRepository } from './participants-repository.js';
import { shownUrl, toProposalView, toRunView } from './participants-view.js';

/** How many readings GET /admin/v1/banks/participants lists. */
const RECENT_RUNS = 20;

export interface ParticipantsSettings extends RemovalLimits {
  /** BANKS_PARTICIPANTS_URL; the sync is off when undefined. */
  url: string | undefined;
  /** BANKS_PARTICIPANTS_SYNC_INTERVAL in milliseconds. */
  intervalMs: number;
  /** BANKS_PARTICIPANTS_REQUIRED: banks the list does not list are kept out of the partners' list. */
  required: boolean;
}

export interface ReadOptions {
  baseVersion?: number;
  comment?: string;
  fileName?: string;
  dryRun?: boolean;
}

/** A reading as recorded: who, how, from where. */
export interface Reading {
  trigger: ParticipantRun['trigger'];
  author: ActorRef;
  approver?: ActorRef | null;
  source: string | null;
}

export interface ParticipantsDependencies {
  lists: BankListService;
  repository: ParticipantsRepository;
  settings: ParticipantsSettings;
  now: () => number;
  /** Told of every applied reading's entries (the admission queue notes the member ids of the banks it holds). */
  onApplied?: (entries: readonly ParticipantEntry[]) => Promise<void>;
  /** Reads a list's bytes in the bank file worker (BankFileReader.participants): its 413, 415 or 422. */
  readList: (bytes: Uint8Array, contentType: string | undefined) => Promise<ParticipantEntry[]>;
}

/**
 * The settlement bank's B2C participant list applied to the bank list: every reading (an import, a sync run) is
 * matched (matchParticipants), applied as one version whose fields record the participants as their source (an
 * operator's values untouched), its name matches stored as proposals, and recorded with what stayed unmatched.
 * Proposals are confirmed (one version) or rejected by an operator.
 */
export interface BankParticipants {
  /** A list read: previewed (`dryRun`) or applied; the removal guard's words when BANKS_PARTICIPANTS_REQUIRED would take too many banks from partners. */
  read(entries: readonly ParticipantEntry[], reading: Reading, options?: ReadOptions): Promise<{ report: ParticipantsReport; holdReason?: string; run?: ParticipantRun }>;
  /** A file (JSON or CSV by Content-Type) read off the serving thread, then `read` as an import by the request's operator. */
  importFile(bytes: Uint8Array, contentType: string | undefined, context: RequestContext | undefined, options?: ReadOptions): Promise<{ report: ParticipantsReport; holdReason?: string }>;
  confirm(bics: readonly string[], context: RequestContext | undefined, options?: Omit<ReadOptions, 'fileName'>): Promise<BankListOutcome>;
  reject(bics: readonly string[], context: RequestContext | undefined, dryRun?: boolean): Promise<ProposalRejection>;
  /** A fingerprint of the pending proposals (maker-checker's base for a rejection). */
  proposalsBase(): Promise<string>;
  status(): Promise<ParticipantsStatus>;
  recordRun(run: Omit<ParticipantRun, 'id'>): Promise<ParticipantRun>;
}

/**
 * Why a reading must wait for a second operator, or undefined: only with BANKS_PARTICIPANTS_REQUIRED (otherwise
 * the list changes no bank partners receive), when it would take more banks out of the partners' list than
 * BANKS_SYNC_MAX_REMOVALS or leave fewer than BANKS_SYNC_MIN_BANKS.
 */
export function participantsHold(changes: readonly BankListChange[], next: readonly BankListEntry[], settings: ParticipantsSettings): string | undefined {
  if (!settings.required) return undefined;
  const dropped = changes.filter((change) => change.fields.some((field) => field.field === 'participantsListed' && field.new === false && field.old !== false)).length;
  return holdReason({ removed: dropped, banks: next.filter((bank) => bank.participantsListed !== false).length }, settings) ?? undefined;
}

export function createBankParticipants({ lists, repository, settings, now, readList, onApplied }: ParticipantsDependencies): BankParticipants {
  const pendingOf = async () => new Map((await repository.proposals()).filter((proposal) => proposal.status === 'pending').map((proposal) => [proposal.bic, proposal]));
  const previewed = (proposals: readonly NewProposal[], at: Date): ParticipantProposal[] =>
    proposals.map((proposal) => ({ ...proposal, status: 'pending', proposedAt: at.toISOString(), decidedBy: null, decidedAt: null }));
  const participants: BankParticipants = {
    async importFile(bytes, contentType, context, options = {}) {
      const entries = await readList(bytes, contentType);
      const { author, approver } = authorOf(context);
      return participants.read(entries, { trigger: 'import', author, approver, source: options.fileName ?? null }, options);
    },
    async read(entries, reading, options = {}) {
      const rejected = new Set((await repository.proposals()).filter((proposal) => proposal.status === 'rejected').map((proposal) => proposalKey(proposal.bic, proposal.memberId)));
      const at = new Date(now());
      let matching: Matching | undefined;
      let hold: string | undefined;
      let next: BankListEntry[] = [];
      const source = fieldSource('participants', reading.author, at);
      const stamped = withSources((current) => {
        const change = matchParticipants(current, entries, rejected, source);
        matching = change.matching;
        return change;
      }, source);
      const matched = (current: BankListEntry[]) => {
        const change = stamped(current);
        next = change.next;
        return change;
      };
      const base = options.baseVersion !== undefined ? { baseVersion: options.baseVersion } : {};
      if (options.dryRun) {
        const outcome = await lists.preview(matched, options.baseVersion);
        hold = participantsHold(outcome.changes, next, settings);
        return { report: { ...outcome, ...matching!, proposals: previewed(matching!.proposals, at) }, ...(hold ? { holdReason: hold } : {}) };
      }
      // A scheduled reading over the guard changes nothing: the run says why (an import is held by maker-checker instead).
      const guarded = (current: BankListEntry[]) => {
        const change = matched(current);
        hold = reading.trigger === 'import' ? undefined : participantsHold(change.changes, change.next, settings);
        return hold ? { next: current, changes: [] } : change;
      };
      const outcome = await lists.apply(guarded, {
        ...base,
        source: 'participants',
        author: reading.author,
        approver: reading.approver ?? null,
        comment: options.comment ?? (reading.source ? `participant list from ${reading.source}` : 'participant list'),
        fileName: options.fileName ?? null,
      });
      const proposals = hold ? previewed(matching!.proposals, at) : (await repository.replacePending(matching!.proposals, at)).map(toProposalView);
      if (!hold) await onApplied?.(entries);
      const report: ParticipantsReport = { ...outcome, ...matching!, proposals };
      const run = await repository.recordRun({
        startedAt: at,
        finishedAt: new Date(now()),
        trigger: reading.trigger,
        author: reading.author,
        source: reading.source,
        outcome: hold ? 'held' : outcome.applied ? 'applied' : 'unchanged',
        error: hold ?? null,
        version: outcome.applied ? outcome.version : null,
        matching: { ...matching!, proposals },
      });
      return { report, run, ...(hold ? { holdReason: hold } : {}) };
    },
    async confirm(bics, context, options = {}) {
      const pending = await pendingOf();
      const chosen = bics.map((bic) => {
        const proposal = pending.get(bic);
        if (!proposal) throw errors.proposalNotPending(bic);
        return proposal;
      });
      const { author, approver } = authorOf(context);
      const build = withSources((current) => applyProposals(current, chosen, errors.bankNotFound), fieldSource('participants', author, new Date(now())));
      if (options.dryRun) return lists.preview(build, options.baseVersion);
      const outcome = await lists.apply(build, {
        ...(options.baseVersion !== undefined ? { baseVersion: options.baseVersion } : {}),
        source: 'participants',
        author,
        approver,
        comment: options.comment ?? `name matches of the participant list confirmed: ${bics.join(', ')}`,
      });
      await repository.remove(bics);
      return outcome;
    },
    async reject(bics, context, dryRun = false) {
      const pending = await pendingOf();
      const changed = dryRun ? bics.filter((bic) => pending.has(bic)) : await repository.reject(bics, authorOf(context).author, new Date(now()));
      const rejected = new Set(changed);
      return { changed: bics.filter((bic) => rejected.has(bic)), unchanged: bics.filter((bic) => !rejected.has(bic)) };
    },
    async proposalsBase() {
      const pending = [...(await pendingOf()).values()];
      return `proposals:${pending.map((proposal) => proposalKey(proposal.bic, proposal.memberId)).join(',')}`;
    },
    async status() {
      const [runs, proposals] = await Promise.all([repository.recent(RECENT_RUNS), repository.proposals()]);
      return {
        configured: settings.url !== undefined,
        source: settings.url === undefined ? null : shownUrl(settings.url),
        intervalSeconds: Math.round(settings.intervalMs / 1000),
        required: settings.required,
        runs: runs.map(toRunView),
        proposals: proposals.map(toProposalView),
      };
    },
    recordRun: (run) => repository.recordRun(run),
  };
  return participants;
}
