import type { ActorRef } from '@partner-gateway/contract/admin-approvals';
import type { BankSyncPreview, BankSyncRun, BankSyncRunView, BankSyncStatus } from '@partner-gateway/contract/admin-bank-sync';
import { AppError, errors } from '../../errors.js';
import { summarizeChanges } from '../bank-list-diff.js';
import { SYNC_AUTHOR, type BankListService } from '../bank-list-service.js';
import { mergeRegistry, type RegistryEntry } from '../merge-registry.js';
import { fieldSource, withSources } from '../field-sources.js';
import type { BankSyncRepository, NewSyncRun, SyncRun } from './bank-sync-repository.js';
import { shownSource, toSyncRun, toSyncRunView } from './bank-sync-view.js';
import type { RegistryReading } from './read-registry-source.js';
import { holdReason, type RemovalLimits } from './removal-guard.js';
import { ABANDONED_RUN, DUE_HISTORY, isDue } from './sync-due.js';
import type { BankSyncFigures } from '../../metrics/bank-sync-gauges.js';
import type { RegistryAdmission } from '../admission/bank-admissions.js';

/** How many runs `GET /admin/v1/banks/sync` lists. */
const RECENT_RUNS = 20;

export interface BankSyncSettings extends RemovalLimits {
  /** BANKS_SYNC_URL; the sync is off when undefined. */
  url: string | undefined;
  /** BANKS_SYNC_INTERVAL in milliseconds. */
  intervalMs: number;
}

export interface BankSyncDependencies {
  runs: BankSyncRepository;
  lists: BankListService;
  /** Downloads the source, within the limits jwksUri fetching has (time, size, https in production, no private address). */
  fetchSource: (url: string) => Promise<Uint8Array>;
  /** Reads what the source served (ZIP or XML) off the serving thread, within BANKS_IMPORT_MAX_BYTES (BankFileReader). */
  readSource: (bytes: Uint8Array) => Promise<RegistryReading>;
  settings: BankSyncSettings;
  now: () => number;
  /** Told of every recorded run (the gateway audits scheduled ones and logs failures). */
  onRun: (run: BankSyncRun) => void;
  /** New SBP head offices wait in the admission queue (unless BANKS_AUTO_ADMIT); the queue follows every applied reading. */
  admission: RegistryAdmission;
}


/**
 * The registry sync: reads the ED807 directory at BANKS_SYNC_URL, merges it into the list with the registry
 * merge every import uses (curated fields of banks that stay are never changed), and makes a version attributed
 * to the sync. A run that would remove more than BANKS_SYNC_MAX_REMOVALS banks or leave fewer than
 * BANKS_SYNC_MIN_BANKS is held, with its full preview, until an operator approves it (applied exactly as
 * previewed, 409 when the list changed since) or rejects it. A source that cannot be fetched or read changes
 * nothing. One instance runs at a time (an advisory lock); every run is recorded.
 *
 * @example
 * ```ts
 * const run = await sync.run(actorRef(context.actor!)); // { outcome: 'applied', version: 8, changes: [...] }
 * await sync.tick(); // what the schedule calls: a run when one is due, undefined otherwise
 * ```
 */
export interface BankSync {
  /** Runs it now, for an operator: the recorded run (applied, held or unchanged); 502 when the source failed, 409 when one is running. */
  run(author: ActorRef): Promise<BankSyncRunView>;
  /** What a run would do now, recording nothing. */
  preview(): Promise<BankSyncPreview>;
  status(): Promise<BankSyncStatus>;
  /** Applies a held run exactly as previewed, as a new version by `author`. */
  approve(id: number, author: ActorRef, comment?: string): Promise<BankSyncRunView>;
  reject(id: number, author: ActorRef, comment?: string): Promise<BankSyncRun>;
  /** One scheduled check: a run when due (none yet, the last one older than the interval, a failed one older than a tenth of it) and no other instance runs one. */
  tick(): Promise<BankSyncRun | undefined>;
  figures(): Promise<BankSyncFigures>;
}

export function createBankSync(deps: BankSyncDependencies): BankSync {
  const { runs, lists, settings, now } = deps;
  const source = () => {
    if (settings.url === undefined) throw errors.bankSyncNotConfigured();
    return settings.url;
  };

  /** The source's entries, or why they could not be read (the problem never carries the URL's query). */
  async function read(url: string): Promise<{ entries: RegistryEntry[]; received: number } | { problem: string }> {
    let bytes: Uint8Array;
    try {
      bytes = await deps.fetchSource(url);
    } catch (error) {
      return { problem: `the source could not be fetched: ${error instanceof Error ? error.message : String(error)}` };
    }
    return deps.readSource(bytes);
  }

  /** Runs left `started` by an instance that stopped, marked failed and told like any failure (audit, log, metrics). */
  async function settleAbandoned(): Promise<void> {
    for (const run of await runs.abandonUnfinished(ABANDONED_RUN)) deps.onRun(toSyncRun(run));
  }

  /** One run, under the lock's protection (the caller holds it): recorded as started before its source is fetched. */
  async function runLocked(trigger: 'schedule' | 'manual', author: ActorRef): Promise<SyncRun> {
    const url = source();
    await settleAbandoned();
    const startedAt = new Date(now());
    const base = { startedAt, trigger, author, source: shownSource(url), received: null, baseVersion: null, version: null, added: 0, changed: 0, removed: 0, changes: [], entries: null, holdReason: null, holdStatus: null, decidedBy: null, decidedAt: null, decisionComment: null } satisfies Partial<NewSyncRun>;
    const started = await runs.start({ ...base, finishedAt: null, outcome: 'started', error: null });
    const record = async (run: NewSyncRun) => {
      const stored = await runs.insert(run, started.id);
      deps.onRun(toSyncRun(stored));
      return stored;
    };
    try {
      return await runStarted(url, base, record);
    } catch (error) {
      // An error of the gateway's (the database), not the source's: as before, no run is recorded for it.
      await runs.discard(started.id).catch(() => undefined);
      throw error;
    }
  }

  async function runStarted(url: string, base: Omit<NewSyncRun, 'finishedAt' | 'outcome' | 'error'>, record: (run: NewSyncRun) => Promise<SyncRun>): Promise<SyncRun> {
    const { trigger, author } = base;
    const reading = await read(url);
    if ('problem' in reading) return record({ ...base, finishedAt: new Date(now()), outcome: 'failed', error: reading.problem });
    let held: { reason: string; changes: SyncRun['changes'] } | undefined;
    const publishNow = await deps.admission.publishNow();
    // The guard runs on the list as the commit locked it, so that what is held or applied is what it judged.
    const registry = fieldSource('registry', trigger === 'schedule' ? SYNC_AUTHOR : author, new Date(now()));
    const outcome = await lists.apply(
      (current) => {
        const change = withSources((list) => mergeRegistry(list, reading.entries, publishNow), registry)(current);
        const counts = summarizeChanges(change.changes);
        const reason = holdReason({ removed: counts.removed.length, banks: change.next.length }, settings);
        if (reason === null) return change;
        held = { reason, changes: change.changes };
        return { next: current, changes: [] };
      },
      { source: 'sync', author: trigger === 'schedule' ? SYNC_AUTHOR : author, comment: `registry sync from ${shownSource(url)}` },
    );
    const changes = held?.changes ?? outcome.changes;
    const counts = summarizeChanges(changes);
    const common = { ...base, finishedAt: new Date(now()), error: null, received: reading.received, baseVersion: outcome.baseVersion, changes, added: counts.added.length, changed: counts.changed.length, removed: counts.removed.length };
    if (held) return record({ ...common, outcome: 'held', entries: reading.entries, holdReason: held.reason, holdStatus: 'pending' });
    await deps.admission.observe(reading.entries);
    return record({ ...common, outcome: outcome.applied ? 'applied' : 'unchanged', version: outcome.applied ? outcome.version : null });
  }

  async function due(): Promise<boolean> {
    await settleAbandoned();
    return isDue(await runs.recent(DUE_HISTORY), now(), settings.intervalMs);
  }

  return {
    async run(author) {
      source();
      const result = await runs.exclusive(() => runLocked('manual', author));
      if (!result.ran) throw errors.bankSyncRunning();
      if (result.value.outcome === 'failed') throw errors.bankSyncFailed(result.value.id, result.value.error ?? 'unknown');
      return toSyncRunView(result.value);
    },
    async preview() {
      const url = source();
      const reading = await read(url);
      if ('problem' in reading) throw errors.bankSyncPreviewFailed(reading.problem);
      const current = await lists.current();
      const change = mergeRegistry(current.list, reading.entries, await deps.admission.publishNow());
      const counts = summarizeChanges(change.changes);
      return {
        source: shownSource(url),
        received: reading.received,
        baseVersion: current.version,
        holdReason: holdReason({ removed: counts.removed.length, banks: change.next.length }, settings),
        ...counts,
        changes: change.changes,
      };
    },
    async status() {
      const [recent, pending, lastSuccessAt] = await Promise.all([runs.recent(RECENT_RUNS), runs.pending(), runs.lastSuccessAt()]);
      return {
        configured: settings.url !== undefined,
        source: settings.url === undefined ? null : shownSource(settings.url),
        intervalSeconds: Math.round(settings.intervalMs / 1000),
        maxRemovals: settings.maxRemovals,
        minBanks: settings.minBanks,
        lastSuccessAt: lastSuccessAt?.toISOString() ?? null,
        runs: recent.map(toSyncRun),
        pending: pending ? toSyncRunView(pending) : null,
      };
    },
    async approve(id, author, comment) {
      const run = await runs.get(id);
      if (!run) throw errors.bankSyncRunNotFound(id);
      if (run.holdStatus !== 'pending' || run.entries === null || run.baseVersion === null) throw errors.bankSyncNotPending(id, run.holdStatus ?? run.outcome);
      const entries = run.entries;
      const claimed = await runs.decide(id, { status: 'approved', decidedBy: author, decidedAt: new Date(now()), comment: comment ?? null });
      if (!claimed) throw errors.bankSyncNotPending(id, (await runs.get(id))?.holdStatus ?? 'gone');
      try {
        const publishNow = await deps.admission.publishNow();
        const outcome = await lists.apply(withSources((current) => mergeRegistry(current, entries, publishNow), fieldSource('registry', author, new Date(now()))), {
          baseVersion: run.baseVersion,
          source: 'sync',
          author,
          comment: comment ?? `held registry sync (run ${id}) approved: ${run.holdReason}`,
        });
        await runs.settle(id, { status: 'approved', version: outcome.version });
        await deps.admission.observe(entries);
        return toSyncRunView({ ...claimed, holdStatus: 'approved', version: outcome.version, entries: null });
      } catch (error) {
        // The list changed since the run was held: applying it now would not be what was previewed.
        const conflict = error instanceof AppError && error.code === 'bank_list_changed';
        await runs.settle(id, { status: conflict ? 'conflict' : 'pending' });
        throw error;
      }
    },
    async reject(id, author, comment) {
      const run = await runs.get(id);
      if (!run) throw errors.bankSyncRunNotFound(id);
      const claimed = await runs.decide(id, { status: 'rejected', decidedBy: author, decidedAt: new Date(now()), comment: comment ?? null });
      if (!claimed) throw errors.bankSyncNotPending(id, run.holdStatus ?? run.outcome);
      await runs.settle(id, { status: 'rejected' });
      return toSyncRun({ ...claimed, entries: null });
    },
    async tick() {
      if (settings.url === undefined) return undefined;
      const result = await runs.exclusive(async () => ((await due()) ? runLocked('schedule', SYNC_AUTHOR) : undefined));
      return result.ran && result.value ? toSyncRun(result.value) : undefined;
    },
    async figures() {
      const [[last], pending, lastSuccessAt] = await Promise.all([runs.recent(1), runs.pending(), runs.lastSuccessAt()]);
      return { lastAttemptAt: last ? (last.finishedAt ?? last.startedAt) : undefined, lastSuccessAt, lastFailed: last?.outcome === 'failed', pending: pending ? 1 : 0 };
    },
  };
}
