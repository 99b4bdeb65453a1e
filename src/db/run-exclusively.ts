import { sql, type Kysely } from 'kysely';
import type { DatabaseKind } from './database.js';

/** What `runExclusively` did: ran the work (and its value), or found the job running elsewhere. */
export type ExclusiveRun<T> = { ran: true; value: T } | { ran: false };

/** The jobs running on each embedded database in this process (every gateway of the process over one PGlite shares its Kysely). */
const embeddedJobs = new WeakMap<object, Set<string>>();

/**
 * Runs `work` unless job `name` already runs on this database, on any instance: on PostgreSQL under a session
 * advisory lock on a connection of its own, held while the work runs (its statements use other connections), keyed
 * by the schema and the name; on the embedded database (one process) under a flag per database and name.
 *
 * @example
 * ```ts
 * const run = await runExclusively(db, 'postgres', 'bank_registry_sync', () => syncNow());
 * if (!run.ran) return; // another instance is syncing
 * ```
 */
export async function runExclusively<T>(database: Kysely<any>, kind: DatabaseKind, name: string, work: () => Promise<T>): Promise<ExclusiveRun<T>> {
  if (kind !== 'postgres') {
    const running = embeddedJobs.get(database) ?? new Set<string>();
    embeddedJobs.set(database, running);
    if (running.has(name)) return { ran: false };
    running.add(name);
    try {
      return { ran: true, value: await work() };
    } finally {
      running.delete(name);
    }
  }
  // The key is written into the statement (a literal), as the two jobs' locks always were: a parameter beside
  // current_schema() would leave PostgreSQL to guess the type of `name || unknown`.
  const key = sql.lit(`.${name}`);
  return database.connection().execute(async (connection) => {
    const { rows } = await sql<{ got: boolean }>`select pg_try_advisory_lock(hashtext(current_schema() || ${key})) as got`.execute(connection);
    if (!rows[0]?.got) return { ran: false as const };
    try {
      return { ran: true as const, value: await work() };
    } finally {
      await sql`select pg_advisory_unlock(hashtext(current_schema() || ${key}))`.execute(connection);
    }
  });
}
