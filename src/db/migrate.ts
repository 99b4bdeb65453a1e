import { Migrator, sql, type Kysely, type Migration, type MigrationResultSet } from 'kysely';
import * as initial from './migrations/0001-initial.js';
import * as tokenLifecycle from './migrations/0002-token-lifecycle.js';
import * as unloggedCaches from './migrations/0003-unlogged-caches.js';
import * as auditRetention from './migrations/0004-audit-retention.js';
import * as throttleReservations from './migrations/0010-throttle-reservations.js';
import * as partnerClientAuth from './migrations/0011-partner-client-auth.js';
import * as tokenFamilyBinding from './migrations/0012-token-family-binding.js';
import * as partnerCertificates from './migrations/0013-partner-certificates.js';

/**
 * The migrations, in order. They are listed here rather than read from the directory so that the
 * compiled build and the TypeScript sources apply exactly the same set.
 */
const migrations: Record<string, Migration> = {
  '0001-initial': initial,
  '0002-token-lifecycle': tokenLifecycle,
  '0003-unlogged-caches': unloggedCaches,
  '0004-audit-retention': auditRetention,
  '0010-throttle-reservations': throttleReservations,
  '0011-partner-client-auth': partnerClientAuth,
  '0012-token-family-binding': tokenFamilyBinding,
  '0013-partner-certificates': partnerCertificates,
};

/**
 * Brings the schema up to date. Safe when several instances start at once: Kysely's PostgreSQL adapter
 * takes a transaction-scoped advisory lock around the whole run, so one instance migrates and the others
 * wait, then find nothing left to do.
 */
export async function migrateToLatest(db: Kysely<any>): Promise<void> {
  await migrate(db, (migrator) => migrator.migrateToLatest());
}

/** Brings the schema up to the named migration and no further (tests of a later migration on existing rows). */
export async function migrateUpTo(db: Kysely<any>, name: string): Promise<void> {
  await migrate(db, (migrator) => migrator.migrateTo(name));
}

async function migrate(db: Kysely<any>, run: (migrator: Migrator) => Promise<MigrationResultSet>): Promise<void> {
  // The migration tables live in the current schema, named explicitly: Kysely otherwise takes a
  // kysely_migration table in any schema of the database for its own.
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    migrationTableSchema: rows[0]?.schema ?? 'public',
  });
  const { error, results } = await run(migrator);
  if (error) {
    const failed = results?.find((result) => result.status === 'Error');
    // The cause's message is named too: a failure before any migration ran (the lock, the migration table)
    // has no migration name, and a test runner prints the message, not the cause.
    const because = error instanceof Error ? `: ${error.message.slice(0, 300)}` : '';
    throw new Error(`Database migration ${failed?.migrationName ?? '(before any migration)'} failed${because}`, { cause: error });
  }
}
