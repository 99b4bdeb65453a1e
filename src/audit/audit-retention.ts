import { sql, type Kysely } from 'kysely';
import { createPartition, dayStart, DAY_MS, isEmbedded, listPartitions, partitionDay, RETENTION_SETTING } from '../db/audit-partitions.js';
import type { Database } from '../db/schema.js';
import { upsertLastCalls } from './audit-repository.js';

/** What one maintenance run did, and the figures `/metrics` shows until the next. */
export interface RetentionReport {
  /** False when another instance held the maintenance lock: this one did nothing. */
  ran: boolean;
  partitionsCreated: number;
  partitionsDropped: number;
  /** Rows deleted one batch at a time (PGlite, and legacy rows past retention on PostgreSQL). */
  rowsDeleted: number;
  /** Rows moved from the pre-partitioning table into their partitions (PostgreSQL, once after the migration). */
  legacyRowsMoved: number;
  /** The oldest entry's time, null when the trail is empty. */
  oldestAt: Date | null;
  /** Day partitions (PostgreSQL); 0 on PGlite. */
  partitions: number;
}

export interface AuditRetention {
  /** One maintenance run: partitions ahead, retention, the legacy move. Safe to call from every instance at once. */
  run(): Promise<RetentionReport>;
  /** The figures of the last run, for the metrics (null before the first). */
  last(): RetentionReport | null;
  /** Runs now and every `intervalMs` after, reporting failures to `onError`; `stop()` waits for a run in flight. */
  start(intervalMs: number, onError?: (error: unknown) => void): void;
  stop(): Promise<void>;
}

export interface AuditRetentionOptions {
  /** AUDIT_RETENTION_DAYS: entries older than this many days are removed. */
  retentionDays: number;
  now?: () => number;
  /** Day partitions kept ready ahead of today (PostgreSQL). */
  daysAhead?: number;
  /** Rows per transaction when deleting or moving rows: each batch is short, so nothing waits on it for long. */
  batchSize?: number;
}

/**
 * Keeps the audit trail bounded (AUDIT_RETENTION_DAYS). On PostgreSQL it makes day partitions ahead, drops
 * whole partitions once their whole day is past retention (so an entry goes within a day of reaching the age,
 * never before), and moves the rows of the table that predates partitioning. On PGlite it deletes expired
 * rows in bounded batches, yielding between them so that requests are served meanwhile.
 *
 * Several instances share one database: each run takes a transaction-scoped advisory lock per schema with
 * `pg_try_advisory_xact_lock`, so one instance works at a time and the others skip that run. DDL runs with
 * a short `lock_timeout`: a drop or attach waiting behind a long reader would otherwise queue every writer
 * behind itself; it gives up instead and is tried again at the next run.
 *
 * @example
 * ```ts
 * const retention = createAuditRetention(handle.db, { retentionDays: config.AUDIT_RETENTION_DAYS });
 * retention.start(15 * 60_000, (error) => logger.warn({ err: error }, 'audit maintenance failed'));
 * ```
 */
export function createAuditRetention(db: Kysely<Database>, options: AuditRetentionOptions): AuditRetention {
  const now = options.now ?? Date.now;
  const daysAhead = options.daysAhead ?? 7;
  const batchSize = options.batchSize ?? 10_000;
  let embedded: boolean | undefined;
  let last: RetentionReport | null = null;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> | undefined;
  /** Set by stop(): the batch loops end after the batch in flight. */
  let stopping = false;

  /**
   * Runs `work` on one connection holding the maintenance lock (a session lock, released at the end);
   * undefined when another instance holds it. `work` makes each change in a short transaction of its own.
   */
  async function locked<T>(work: (connection: Kysely<Database>) => Promise<T>): Promise<T | undefined> {
    return db.connection().execute(async (connection) => {
      const { rows } = await sql<{ got: boolean }>`select pg_try_advisory_lock(hashtext(current_schema() || '.audit_log_maintenance')) as got`.execute(connection);
      if (!rows[0]?.got) return undefined;
      try {
        return await work(connection);
      } finally {
        await sql`select pg_advisory_unlock(hashtext(current_schema() || '.audit_log_maintenance'))`.execute(connection);
      }
    });
  }

  /** One short transaction that gives up on a lock after 2 s rather than queue writers behind itself. */
  function step<T>(connection: Kysely<Database>, work: (trx: Kysely<Database>) => Promise<T>): Promise<T> {
    return connection.transaction().execute(async (trx) => {
      await sql`set local lock_timeout = '2s'`.execute(trx);
      return work(trx);
    });
  }

  async function pglite(report: RetentionReport, cutoff: Date): Promise<void> {
    for (;;) {
      const deleted = await locked((connection) =>
        step(connection, async (trx) => {
          await sql`set local ${sql.raw(RETENTION_SETTING)} = 'on'`.execute(trx);
          const result = await sql`delete from audit_log where id in (select id from audit_log where at < ${cutoff} order by at limit ${batchSize})`.execute(trx);
          return Number(result.numAffectedRows ?? 0);
        }),
      );
      report.rowsDeleted += deleted ?? 0;
      if (deleted === undefined) report.ran = false;
      if (!deleted || deleted < batchSize || stopping) return;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  async function postgres(report: RetentionReport, cutoff: Date): Promise<void> {
    const done = await locked(async (connection) => {
      const today = dayStart(now());
      for (let day = 0; day <= daysAhead; day++) {
        if (await step(connection, (trx) => createPartition(trx, today + day * DAY_MS))) report.partitionsCreated++;
      }
      // Entries that landed in the default partition (none while partitions are made ahead) expire row by row.
      report.rowsDeleted += await step(connection, async (trx) => {
        await sql`set local ${sql.raw(RETENTION_SETTING)} = 'on'`.execute(trx);
        return Number((await sql`delete from audit_log_default where at < ${cutoff}`.execute(trx)).numAffectedRows ?? 0);
      });
      // Only partitions whose whole day lies before the cutoff: nothing younger than retention is touched.
      for (const name of await listPartitions(connection)) {
        if (partitionDay(name)! + DAY_MS <= cutoff.getTime()) {
          await step(connection, (trx) => sql`drop table ${sql.id(name)}`.execute(trx));
          report.partitionsDropped++;
        }
      }
      for (;;) {
        const moved = await step(connection, (trx) => moveLegacyBatch(trx, cutoff, report));
        if (moved === 0 || stopping) return true;
        await new Promise((resolve) => setImmediate(resolve));
      }
    });
    if (!done) report.ran = false;
  }

  /** Moves the newest `batchSize` legacy rows into their partitions (dropping those past retention); 0 when none is left. */
  async function moveLegacyBatch(trx: Kysely<Database>, cutoff: Date, report: RetentionReport): Promise<number> {
    const legacy = await sql<{ found: string | null }>`select to_regclass('audit_log_legacy') as found`.execute(trx);
    if (!legacy.rows[0]?.found) return 0;
    const span = await sql<{ low: Date | null; high: Date | null }>`select min(at) as low, max(at) as high from
      (select at from audit_log_legacy order by id desc limit ${batchSize}) batch`.execute(trx);
    const { low, high } = span.rows[0] ?? { low: null, high: null };
    if (low === null || high === null) {
      await sql`drop table audit_log_legacy`.execute(trx);
      return 0;
    }
    // Rows past retention are not moved (they would only be dropped); their partitions are not made.
    for (let day = dayStart(Math.max(new Date(low).getTime(), cutoff.getTime())); day <= new Date(high).getTime(); day += DAY_MS) {
      if (await createPartition(trx, day)) report.partitionsCreated++;
    }
    await sql`set local ${sql.raw(RETENTION_SETTING)} = 'on'`.execute(trx);
    const result = await sql<{ moved: string; expired: string }>`with batch as (
        delete from audit_log_legacy where id in (select id from audit_log_legacy order by id desc limit ${batchSize}) returning *
      ), moved as (
        insert into audit_log (id, at, action, outcome, status, partner, client_address, reason, request_id, details)
        select id, at, action, outcome, status, partner, client_address, reason, request_id, details from batch where at >= ${cutoff}
        returning id, at, action, outcome, partner
      ), last_calls as (
        ${upsertLastCalls('moved')}
        returning 1
      ) select (select count(*) from moved) as moved, (select count(*) from batch) - (select count(*) from moved) as expired`.execute(trx);
    const moved = Number(result.rows[0]?.moved ?? 0);
    const expired = Number(result.rows[0]?.expired ?? 0);
    report.legacyRowsMoved += moved;
    report.rowsDeleted += expired;
    return moved + expired;
  }

  async function figures(report: RetentionReport): Promise<void> {
    const oldest = await sql<{ at: Date | null }>`select min(at) as at from audit_log`.execute(db);
    let oldestAt = oldest.rows[0]?.at ?? null;
    if (!embedded) {
      const legacy = await sql<{ found: string | null }>`select to_regclass('audit_log_legacy') as found`.execute(db);
      if (legacy.rows[0]?.found) {
        const old = await sql<{ at: Date | null }>`select min(at) as at from audit_log_legacy`.execute(db);
        const at = old.rows[0]?.at ?? null;
        if (at !== null && (oldestAt === null || new Date(at) < new Date(oldestAt))) oldestAt = at;
      }
      report.partitions = (await listPartitions(db)).length;
    }
    report.oldestAt = oldestAt === null ? null : new Date(oldestAt);
  }

  async function run(): Promise<RetentionReport> {
    embedded ??= await isEmbedded(db);
    const report: RetentionReport = { ran: true, partitionsCreated: 0, partitionsDropped: 0, rowsDeleted: 0, legacyRowsMoved: 0, oldestAt: null, partitions: 0 };
    const cutoff = new Date(now() - options.retentionDays * DAY_MS);
    if (embedded) await pglite(report, cutoff);
    else await postgres(report, cutoff);
    // The "last call" of a partner silent for the whole retention goes with its entries (idempotent, so unlocked).
    await sql`delete from partner_last_call where at < ${cutoff}`.execute(db);
    await figures(report);
    last = report;
    return report;
  }

  function tick(onError?: (error: unknown) => void): void {
    if (running) return;
    running = run()
      .catch((error: unknown) => onError?.(error))
      .finally(() => {
        running = undefined;
      });
  }

  return {
    run,
    last: () => last,
    start(intervalMs, onError) {
      tick(onError);
      timer = setInterval(() => tick(onError), intervalMs);
      timer.unref();
    },
    async stop() {
      stopping = true;
      clearInterval(timer);
      await running;
    },
  };
}
