import type { ActorRef } from '@partner-gateway/contract/admin-approvals';
import type { BankListChange, BankListEntry, BankListOutcome } from '@partner-gateway/contract/admin-bank-versions';
import { AppError, errors } from '../errors.js';
import { actorRef, type RequestContext } from '../request-context.js';
import { summarizeChanges } from './bank-list-diff.js';
import { diffBankLists } from './bank-list-diff.js';
import { restoreList } from './bank-list-edits.js';
import type { BankVersionRepository, CommitResult, CurrentList, VersionRecord } from './bank-version-repository.js';
import type { ListChange } from './merge-registry.js';

/** A change of the list, as a pure function of the list it applies to (mergeRegistry, mergeFile, editBank...). */
export type ListBuilder = (current: BankListEntry[]) => ListChange;

/** What the history records for a change, and the version it was previewed on (409 when the list has moved since). */
export interface ApplyOptions extends VersionRecord {
  baseVersion?: number;
}

/** The scheduled registry sync, as the history names it. */
export const SYNC_AUTHOR: ActorRef = { id: 'sync', name: 'scheduled sync', credential: 'system' };
/** The gateway itself: the first version (the shipped list, or the list found at the first start with versions). */
export const SEED_AUTHOR: ActorRef = { id: 'gateway', name: 'the gateway', credential: 'system' };

/**
 * Who the history names for an admin request's change, as the audit trail does (id, name, credential): its
 * operator; for a change applied by approving a proposal, the proposer as author and the approving operator as
 * approver (approvals.ts sets both on the context's audit notes); the gateway itself for a change made without a
 * request (a test, a script calling the service).
 */
export function authorOf(context: RequestContext | undefined): Pick<VersionRecord, 'author' | 'approver'> {
  if (context?.audit.approver && context.audit.operator) return { author: context.audit.operator, approver: context.audit.approver };
  return { author: context?.actor ? actorRef(context.actor) : SEED_AUTHOR, approver: null };
}

/**
 * The versioned bank list: every change goes through `apply`, which makes it a new numbered version (who, when,
 * source, comment, diff) or refuses it with 409 `bank_list_changed` when `baseVersion` is not the current version,
 * atomically on any number of instances (a row lock on the list's head). `preview` runs the same builder on the
 * current list and changes nothing: applying it with the `baseVersion` it answered does exactly what it showed.
 *
 * @example
 * ```ts
 * // what a registry sync does, with the entries parseEd807Registry read:
 * const preview = await lists.preview((list) => mergeRegistry(list, entries));
 * const outcome = await lists.apply((list) => mergeRegistry(list, entries), { baseVersion: preview.baseVersion, source: 'sync', author: SYNC_AUTHOR });
 * // outcome: { applied: true, version: 8, changes: [...] } or { applied: false } when nothing changed
 * ```
 */
export interface BankListService {
  /** The current version: number, list, partners' body and ETag. */
  current(): Promise<CurrentList>;
  preview(build: ListBuilder, baseVersion?: number): Promise<BankListOutcome>;
  apply(build: ListBuilder, options: ApplyOptions): Promise<BankListOutcome>;
  /** A new version whose list is version `number`'s (404 when it does not exist or has expired). */
  restore(number: number, options: Omit<ApplyOptions, 'source' | 'restoredFrom'>): Promise<BankListOutcome>;
  /** What restoring `number` would change. */
  previewRestore(number: number, baseVersion?: number): Promise<BankListOutcome>;
  /** Version 1, once: `defaults` on an empty table, else the list as found. True when the defaults were written. */
  seed(defaults: readonly BankListEntry[]): Promise<boolean>;
}

export function createBankListService(versions: BankVersionRepository, now: () => number, onChange: () => void): BankListService {
  // A preview and the change it previews answer alike: the sources (who, and when to the millisecond) are the
  // version's, read in its history (GET /admin/v1/banks/versions/{n}), not in the answer.
  const outcome = (result: CommitResult): BankListOutcome => ({ ...result, changes: withoutSources(result.changes), ...summarizeChanges(result.changes) });
  const listOf = async (number: number) => {
    const version = await versions.get(number);
    if (!version) throw errors.bankVersionNotFound(number);
    return version.list;
  };
  const service: BankListService = {
    current: () => versions.current(),
    async preview(build, baseVersion) {
      const current = await versions.current();
      if (baseVersion !== undefined && baseVersion !== current.version) throw errors.bankListChanged(baseVersion, current.version);
      const { changes } = build(current.list);
      return outcome({ applied: false, baseVersion: current.version, version: current.version, changes });
    },
    async apply(build, options) {
      const { baseVersion, ...record } = options;
      const result = await versions.commit(baseVersion, build, record, new Date(now()));
      if (result.applied) onChange();
      return outcome(result);
    },
    async restore(number, options) {
      const list = await listOf(number);
      return service.apply((current) => restoreList(current, list), { ...options, source: 'restore', restoredFrom: number });
    },
    async previewRestore(number, baseVersion) {
      const list = await listOf(number);
      return service.preview((current) => restoreList(current, list), baseVersion);
    },
    async seed(defaults) {
      let seeded = false;
      try {
        await service.apply(
          (current) => {
            const list = current.length > 0 ? current : defaults.map((bank) => ({ ...bank }));
            seeded = current.length === 0;
            return { next: list, changes: diffBankLists([], list) };
          },
          { baseVersion: 0, source: 'seed', author: SEED_AUTHOR, comment: null },
        );
      } catch (error) {
        // Another instance (or an earlier start) made version 1 first.
        if (error instanceof AppError && error.code === 'bank_list_changed') return false;
        throw error;
      }
      return seeded;
    },
  };
  return service;
}

function withoutSources(changes: readonly BankListChange[]): BankListChange[] {
  return changes.map((change) => (change.fields.some((field) => field.source) ? { ...change, fields: change.fields.map(({ source: _source, ...field }) => field) } : change));
}
