import { sql, type Kysely } from 'kysely';
import type { ActorRef } from '@partner-gateway/contract/admin-approvals';
import type { BankListChange } from '@partner-gateway/contract/admin-bank-versions';
import type { BankSyncHoldStatus, BankSyncOutcome } from '@partner-gateway/contract/admin-bank-sync';
import { column, fromColumns, json, toColumns, type Entity, type NewEntity } from '../../db/field-map.js';
import type { DatabaseKind } from '../../db/database.js';
import type { Database } from '../../db/schema.js';
import type { RegistryEntry } from '../merge-registry.js';
import { runExclusively } from '../../db/run-exclusively.js';

/** A sync run's stored fields (migration 0025): the one map that drives its insert, its decision and its read. */
export const syncRunFields = {
  id: column<number>('id').defaulted(0).immutable(),
  startedAt: column<Date>('started_at').immutable(),
  /** Null while the run goes on, and for a run that never finished. */
  finishedAt: column<Date | null>('finished_at').immutable(),
  trigger: column<'schedule' | 'manual'>('trigger').immutable(),
  author: json<ActorRef>('author').immutable(),
  source: column<string>('source').immutable(),
  outcome: column<BankSyncOutcome>('outcome').immutable(),
  error: column<string | null>('error').immutable(),
  received: column<number | null>('received').immutable(),
  baseVersion: column<number | null>('base_version').immutable(),
  version: column<number | null>('version'),
  added: column<number>('added').immutable(),
  changed: column<number>('changed').immutable(),
  removed: column<number>('removed').immutable(),
  changes: json<BankListChange[]>('changes').immutable(),
  /** What the registry listed, kept only while a held run waits for its decision. */
  entries: json<RegistryEntry[] | null>('entries'),
  holdReason: column<string | null>('hold_reason').immutable(),
  holdStatus: column<BankSyncHoldStatus | null>('hold_status'),
  decidedBy: json<ActorRef | null>('decided_by'),
  decidedAt: column<Date | null>('decided_at'),
  decisionComment: column<string | null>('decision_comment'),
};
export type SyncRun = Entity<typeof syncRunFields>;
export type NewSyncRun = NewEntity<typeof syncRunFields>;

type Tables = { bank_sync_runs: { [K in keyof typeof syncRunFields as (typeof syncRunFields)[K]['column']]: unknown } & { [column: string]: unknown } };

/** A held run's decision: who, when, what it became, and the comment. */
export interface SyncDecision {
  status: 'approved' | 'rejected';
  decidedBy: ActorRef;
  decidedAt: Date;
  comment: string | null;
}

export interface BankSyncRepository {
  /** Records a run as started (outcome `started`, no end) before its source is fetched: what a crash leaves behind. */
  start(run: NewSyncRun): Promise<SyncRun>;
  /**
   * Records a finished run, dropping its `started` record (`replacing`) in the same transaction; a held run
   * (holdStatus pending) supersedes any run still pending.
   */
  insert(run: NewSyncRun, replacing?: number): Promise<SyncRun>;
  /** Drops a started record without a run to replace it (the run stopped on an error of the gateway's). */
  discard(id: number): Promise<void>;
  /**
   * Marks every started run failed with `error` and no end: called under the sync's lock, when no run can be
   * going on, so that a started run is one whose instance stopped. Returns the runs it marked.
   */
  abandonUnfinished(error: string): Promise<SyncRun[]>;
  /** The last `limit` runs, newest first. */
  recent(limit: number): Promise<SyncRun[]>;
  /** The held run waiting for a decision, if any. */
  pending(): Promise<SyncRun | undefined>;
  get(id: number): Promise<SyncRun | undefined>;
  /**
   * Claims a pending run for a decision, once: the run as decided, or undefined when it was not pending any more
   * (another operator, or a later run, got there first).
   */
  decide(id: number, decision: SyncDecision): Promise<SyncRun | undefined>;
  /**
   * What a decided run finally became (approved as `version`, conflict, rejected), its registry entries dropped;
   * or `pending` again, undecided, when applying it failed for a reason of the gateway's (the database was down).
   */
  settle(id: number, outcome: { status: BankSyncHoldStatus; version?: number | null }): Promise<void>;
  /** When the last run that read its source (applied, held or unchanged) finished. */
  lastSuccessAt(): Promise<Date | undefined>;
  /** Deletes runs finished before `cutoff`, never a pending one; returns how many. */
  purgeBefore(cutoff: Date): Promise<number>;
  /**
   * Runs `work` unless a sync runs elsewhere: on PostgreSQL under a session advisory lock (one instance of all
   * those sharing the database; a crashed instance's lock goes with its connection), on the embedded database
   * (one process) under a flag per database. `{ ran: false }` when it was taken.
   */
  exclusive<T>(work: () => Promise<T>): Promise<{ ran: true; value: T } | { ran: false }>;
}


export function createBankSyncRepository(database: Kysely<Database>, kind: DatabaseKind): BankSyncRepository {
  const db = database.withTables<Tables>();
  const toRun = (row: Record<string, unknown>) => fromColumns(syncRunFields, row);
  return {
    async start(run) {
      return toRun(await db.insertInto('bank_sync_runs').values(toColumns(syncRunFields, run)).returningAll().executeTakeFirstOrThrow());
    },
    async discard(id) {
      await db.deleteFrom('bank_sync_runs').where('id', '=', id).where('outcome', '=', 'started').execute();
    },
    async abandonUnfinished(error) {
      const rows = await db.updateTable('bank_sync_runs').set({ outcome: 'failed', error }).where('outcome', '=', 'started').returningAll().execute();
      return rows.map(toRun);
    },
    insert(run, replacing) {
      return database.transaction().execute(async (trx) => {
        const locked = trx.withTables<Tables>();
        if (replacing !== undefined) await locked.deleteFrom('bank_sync_runs').where('id', '=', replacing).where('outcome', '=', 'started').execute();
        if (run.holdStatus === 'pending' || run.outcome === 'applied') {
          // A newer reading of the registry replaces a held one: approving an old reading would apply a stale list.
          await locked
            .updateTable('bank_sync_runs')
            .set(toColumns(syncRunFields, { holdStatus: 'superseded', entries: null, decidedAt: run.finishedAt }, { update: true }))
            .where('hold_status', '=', 'pending')
            .execute();
        }
        const row = await locked.insertInto('bank_sync_runs').values(toColumns(syncRunFields, run)).returningAll().executeTakeFirstOrThrow();
        return toRun(row);
      });
    },
    async recent(limit) {
      return (await db.selectFrom('bank_sync_runs').selectAll().orderBy('id', 'desc').limit(limit).execute()).map(toRun);
    },
    async pending() {
      const row = await db.selectFrom('bank_sync_runs').selectAll().where('hold_status', '=', 'pending').orderBy('id', 'desc').limit(1).executeTakeFirst();
      return row && toRun(row);
    },
    async get(id) {
      const row = await db.selectFrom('bank_sync_runs').selectAll().where('id', '=', id).executeTakeFirst();
      return row && toRun(row);
    },
    async decide(id, decision) {
      const row = await db
        .updateTable('bank_sync_runs')
        .set(
          toColumns(
            syncRunFields,
            { holdStatus: decision.status, decidedBy: decision.decidedBy, decidedAt: decision.decidedAt, decisionComment: decision.comment },
            { update: true },
          ),
        )
        .where('id', '=', id)
        .where('hold_status', '=', 'pending')
        .returningAll()
        .executeTakeFirst();
      return row && toRun(row);
    },
    async settle(id, outcome) {
      await db
        .updateTable('bank_sync_runs')
        .set(
          toColumns(
            syncRunFields,
            outcome.status === 'pending'
              ? { holdStatus: 'pending', decidedBy: null, decidedAt: null, decisionComment: null }
              : { holdStatus: outcome.status, entries: null, ...(outcome.version !== undefined ? { version: outcome.version } : {}) },
            { update: true },
          ),
        )
        .where('id', '=', id)
        .execute();
    },
    async lastSuccessAt() {
      const row = await db
        .selectFrom('bank_sync_runs')
        .select('finished_at')
        .where('outcome', 'in', ['applied', 'held', 'unchanged'])
        .orderBy('id', 'desc')
        .limit(1)
        .executeTakeFirst();
      return row ? new Date(row.finished_at as Date) : undefined;
    },
    exclusive: (work) => runExclusively(database, kind, 'bank_registry_sync', work),
    async purgeBefore(cutoff) {
      const result = await db
        .deleteFrom('bank_sync_runs')
        .where(sql<Date>`coalesce(finished_at, started_at)`, '<', cutoff)
        .where('outcome', '<>', 'started')
        .where(sql<boolean>`hold_status is distinct from 'pending'`)
        .executeTakeFirst();
      return Number(result.numDeletedRows);
    },
  };
}
