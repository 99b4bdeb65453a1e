import type { ActorRef } from '@partner-gateway/contract/admin-approvals';
import type { BankExclusion, BankAdmissionQueue, BankExclusionList, BankExclusionOutcome, QueuedBank } from '@partner-gateway/contract/admin-bank-admissions';
import type { BankListEntry, BankListOutcome } from '@partner-gateway/contract/admin-bank-versions';
import { curatedTextOf } from '@partner-gateway/contract/bank-curated-fields';
import { errors } from '../../errors.js';
import { authorOf, type BankListService } from '../bank-list-service.js';
import { diffBankLists } from '../bank-list-diff.js';
import type { ListChange, RegistryEntry } from '../merge-registry.js';
import type { RequestContext } from '../../request-context.js';
import type { AdmissionRepository, Exclusion, QueuedBank as StoredQueuedBank } from './admission-repository.js';
import { matchingRule, MAX_EXCLUSION_RULES, patternProblems } from './exclusion-rules.js';
import { suggestDisplayName } from './suggest-display-name.js';
import { fieldSource, withSources } from '../field-sources.js';

/** Which new SBP head offices a registry merge publishes at once (the others wait in the queue). */
export type PublishNow = (entry: RegistryEntry) => boolean;

/** What a registry merge (an import, a sync) asks of admission: which new banks to publish now, and the reading once merged. */
export interface RegistryAdmission {
  publishNow(): Promise<PublishNow>;
  /** The queue made the SBP head offices of `entries` the published list lacks (first seen now, or refreshed); the others leave it. */
  observe(entries: readonly RegistryEntry[]): Promise<void>;
}

/** One bank to admit: its BIC and, optionally, the display name to publish it under (its suggested name otherwise). */
export interface AdmitPick {
  bic: string;
  name?: string;
}

export interface AdmitOptions {
  baseVersion?: number;
  comment?: string;
  dryRun?: boolean;
}

/**
 * The review queue and the exclusions: what keeps new registry banks from partners until an operator has looked.
 * A registry merge asks `publishNow` which new head offices it may publish (none, unless BANKS_AUTO_ADMIT; never an
 * excluded one) and, once merged, `observe`s the reading: the queue becomes the SBP head offices the published list
 * lacks (a bank that left SBP leaves the queue). Admitting appends queued banks as one version; exclusions stick
 * across every later reading until lifted.
 *
 * @example
 * ```ts
 * await admissions.admit([{ bic: '044525466' }, { bic: '041708706', name: 'Владбизнесбанк' }], context); // one version
 * await admissions.exclude(['044525444'], 'wallets only', context);
 * ```
 */
export interface BankAdmissions extends RegistryAdmission {
  queue(): Promise<BankAdmissionQueue>;
  exclusions(): Promise<BankExclusionList>;
  /** A fingerprint of the exclusions (maker-checker's base for an exclusion change). */
  exclusionsBase(): Promise<string>;
  admit(picks: readonly AdmitPick[], context: RequestContext | undefined, options?: AdmitOptions): Promise<BankListOutcome>;
  exclude(bics: readonly string[], reason: string, context: RequestContext | undefined, dryRun?: boolean): Promise<BankExclusionOutcome>;
  unexclude(bics: readonly string[], dryRun?: boolean): Promise<BankExclusionOutcome>;
  /** A name pattern rule (422 when it is not 1 to 8 words of at most 100 characters); the rule as it would be on a dry run. */
  addRule(value: string, reason: string, context: RequestContext | undefined, dryRun?: boolean): Promise<BankExclusion>;
  removeRule(id: number, dryRun?: boolean): Promise<BankExclusion>;
}

export interface BankAdmissionsDependencies {
  repository: AdmissionRepository;
  lists: BankListService;
  /** BANKS_AUTO_ADMIT. */
  autoAdmit: boolean;
  now: () => number;
}

/**
 * The banks appended at the end, in the order given, as one change; 409 when one is listed already. Pure, so that
 * its preview is what applying it does.
 */
export function appendAdmitted(current: readonly BankListEntry[], admitted: readonly BankListEntry[]): ListChange {
  const listed = new Set(current.map((bank) => bank.bic));
  for (const bank of admitted) if (listed.has(bank.bic)) throw errors.bankExists(bank.bic);
  const next = [...current, ...admitted];
  return { next, changes: diffBankLists(current, next) };
}

export function createBankAdmissions({ repository, lists, autoAdmit, now }: BankAdmissionsDependencies): BankAdmissions {
  const view = (rule: Exclusion): BankExclusion => ({ ...rule, createdAt: rule.createdAt.toISOString() });
  const queued = (bank: StoredQueuedBank, rules: readonly Exclusion[]): QueuedBank => {
    const rule = matchingRule(bank, rules);
    return {
      bic: bank.bic,
      registryName: bank.registryName,
      suggestedName: suggestDisplayName(bank.registryName),
      nameEn: bank.nameEn,
      sbpMemberId: bank.sbpMemberId,
      firstSeenAt: bank.firstSeenAt.toISOString(),
      state: rule ? 'excluded' : 'pending',
      excludedBy: rule ? view(rule) : null,
    };
  };
  const tooMany = (adding: number, having: number) => {
    if (having + adding > MAX_EXCLUSION_RULES) throw errors.validationFailed([{ field: 'bics', message: `the gateway keeps at most ${MAX_EXCLUSION_RULES} exclusions (${having} now)` }]);
  };
  return {
    async publishNow() {
      if (!autoAdmit) return () => false;
      const rules = await repository.exclusions();
      return (entry) => matchingRule(entry, rules) === undefined;
    },
    async observe(entries) {
      const listed = new Set((await lists.current()).list.map((bank) => bank.bic));
      const waiting = entries.filter((entry) => entry.sbpParticipant && !listed.has(entry.bic)).map(({ bic, registryName, nameEn }) => ({ bic, registryName, nameEn }));
      await repository.replaceQueue({ waiting, seenAt: new Date(now()) });
    },
    async queue() {
      const [rows, rules, current] = await Promise.all([repository.queue(), repository.exclusions(), lists.current()]);
      // A queued bank published since (added by hand, a file, a replace) is not waiting any more.
      const listed = new Set(current.list.map((bank) => bank.bic));
      const banks = rows.filter((row) => !listed.has(row.bic)).map((row) => queued(row, rules));
      const excluded = banks.filter((bank) => bank.state === 'excluded').length;
      return { autoAdmit, pending: banks.length - excluded, excluded, banks };
    },
    async exclusions() {
      return { exclusions: (await repository.exclusions()).map(view) };
    },
    async exclusionsBase() {
      const rules = await repository.exclusions();
      return `exclusions:${rules.map((rule) => rule.id).join(',')}`;
    },
    async admit(picks, context, options = {}) {
      const seen = new Set<string>();
      for (const [index, pick] of picks.entries()) {
        if (seen.has(pick.bic)) throw errors.validationFailed([{ field: `banks[${index}].bic`, message: `duplicates BIC ${pick.bic}` }]);
        seen.add(pick.bic);
      }
      const [rows, rules] = await Promise.all([repository.queue(), repository.exclusions()]);
      const byBic = new Map(rows.map((row) => [row.bic, row]));
      const author = authorOf(context).author;
      const at = new Date(now());
      const admitted = picks.map((pick): BankListEntry => {
        const row = byBic.get(pick.bic);
        if (!row) throw errors.bankNotQueued(pick.bic);
        const rule = matchingRule(row, rules);
        if (rule) throw errors.bankExcluded(pick.bic, rule.reason);
        const name = pick.name?.trim() || suggestDisplayName(row.registryName);
        // A name the operator chose is theirs; the suggested one, like the Latin name, comes from the registry.
        const sources = {
          sources: {
            ...(pick.name?.trim() ? { name: fieldSource('operator', author, at) } : {}),
            // A member id the queue holds came from the participant list.
            ...(row.sbpMemberId ? { sbpMemberId: fieldSource('participants', author, at) } : {}),
          },
        };
        return { bic: row.bic, name, ...curatedTextOf(row), registryName: row.registryName, sbpParticipant: true, ...sources };
      });
      const build = withSources((current: BankListEntry[]) => appendAdmitted(current, admitted), fieldSource('registry', author, at));
      if (options.dryRun) return lists.preview(build, options.baseVersion);
      const outcome = await lists.apply(build, { baseVersion: options.baseVersion, source: 'admit', ...authorOf(context), comment: options.comment ?? null });
      await repository.dequeue(admitted.map((bank) => bank.bic));
      return outcome;
    },
    async exclude(bics, reason, context, dryRun = false) {
      const [rules, current] = await Promise.all([repository.exclusions(), lists.current()]);
      const listed = new Set(current.list.map((bank) => bank.bic));
      for (const bic of bics) if (listed.has(bic)) throw errors.bankListed(bic);
      const already = new Set(rules.filter((rule) => rule.kind === 'bic').map((rule) => rule.value));
      const changed = bics.filter((bic) => !already.has(bic));
      tooMany(changed.length, rules.length);
      if (!dryRun) {
        const createdBy: ActorRef = authorOf(context).author;
        const stored = await repository.exclude(changed.map((bic) => ({ kind: 'bic' as const, value: bic, reason: reason.trim(), createdBy, createdAt: new Date(now()) })), MAX_EXCLUSION_RULES);
        if ('full' in stored) tooMany(changed.length, stored.full);
      }
      return { changed, unchanged: bics.filter((bic) => already.has(bic)) };
    },
    async unexclude(bics, dryRun = false) {
      const excluded = new Set((await repository.exclusions()).filter((rule) => rule.kind === 'bic').map((rule) => rule.value));
      const changed = dryRun ? bics.filter((bic) => excluded.has(bic)) : await repository.unexcludeBics(bics);
      const lifted = new Set(changed);
      return { changed: bics.filter((bic) => lifted.has(bic)), unchanged: bics.filter((bic) => !lifted.has(bic)) };
    },
    async addRule(value, reason, context, dryRun = false) {
      const problems = patternProblems(value);
      if (problems.length > 0) throw errors.validationFailed(problems);
      const rules = await repository.exclusions();
      const pattern = value.trim();
      const existing = rules.find((rule) => rule.kind === 'name' && rule.value === pattern);
      if (existing) return view(existing);
      tooMany(1, rules.length);
      const rule = { kind: 'name' as const, value: pattern, reason: reason.trim(), createdBy: authorOf(context).author, createdAt: new Date(now()) };
      if (dryRun) return view({ id: 0, ...rule });
      const stored = await repository.exclude([rule], MAX_EXCLUSION_RULES);
      if ('full' in stored) tooMany(1, stored.full);
      const [added] = 'added' in stored ? stored.added : [];
      return view(added ?? (await repository.exclusions()).find((found) => found.kind === 'name' && found.value === pattern)!);
    },
    async removeRule(id, dryRun = false) {
      const rule = (await repository.exclusions()).find((found) => found.id === id);
      if (!rule) throw errors.bankExclusionNotFound(id);
      if (!dryRun && !(await repository.removeExclusion(id))) throw errors.bankExclusionNotFound(id);
      return view(rule);
    },
  };
}
