import { readdirSync } from 'node:fs';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Migrator, sql, type Kysely, type Migration, type MigrationResultSet } from 'kysely';
import { otherSchemaVanished } from './other-schema-vanished.js';

/** A migration's file name: four digits, a name, and this module's own extension (.ts from source, .js built). */
const MIGRATION_FILE = new RegExp(`^\\d{4}-[a-z0-9-]+${extname(fileURLToPath(import.meta.url)).replace('.', '\\.')}$`);

/**
 * Every migration in ./migrations, by file name, in name order: a new file there is applied with no list to
 * register it in, so that the built output and the sources apply the same set (each imports its own folder).
 */
async function migrationsInFolder(): Promise<Record<string, Migration>> {
  const folder = new URL('./migrations/', import.meta.url);
  const names = readdirSync(folder).filter((name) => MIGRATION_FILE.test(name)).sort();
  const migrations: Record<string, Migration> = {};
  for (const name of names) migrations[name.slice(0, -extname(name).length)] = (await import(new URL(name, folder).href)) as Migration;
  return migrations;
}

/**
 * The database was migrated by a newer version of the gateway: it holds migrations this version does not know,
 * whose schema this code was never written against. Starting anyway could corrupt what the newer version
 * wrote, so the start stops, naming them.
 */
export class UnknownMigrationsError extends Error {
  override name = 'UnknownMigrationsError';
  constructor(readonly unknown: string[]) {
    super(
      `the database was migrated by a newer version of the gateway: migration${unknown.length === 1 ? '' : 's'} ${unknown.join(', ')} ` +
        'unknown to this version; run that version (or a later one), or restore a backup taken before the upgrade (docs/operations-database.md)',
    );
  }
}

/** What the database holds and what this version would apply. */
export interface MigrationStatus {
  /** Applied, in order. */
  applied: string[];
  /** This version's migrations not applied yet, in the order they would run. */
  pending: string[];
  /** Applied by a newer version: none of this version's (UnknownMigrationsError). */
  unknown: string[];
}

/**
 * The database's migrations against this version's (`partner-gateway migrate --dry-run` prints it).
 *
 * @example
 * ```ts
 * await migrationStatus(handle.db); // { applied: ['0001-initial', ...], pending: [], unknown: [] }
 * ```
 */
export async function migrationStatus(db: Kysely<any>): Promise<MigrationStatus> {
  const known = Object.keys(await migrationsInFolder());
  // The current schema's table, as migrate() names it (another schema's kysely_migration is not ours).
  const { rows: table } = await sql<{ schema: string; found: string | null }>`select current_schema() as schema, to_regclass(quote_ident(current_schema()) || '.kysely_migration')::text as found`.execute(db);
  const schema = table[0]?.schema ?? 'public';
  const applied = table[0]?.found ? (await sql<{ name: string }>`select name from ${sql.table(`${schema}.kysely_migration`)} order by name`.execute(db)).rows.map((row) => row.name) : [];
  const done = new Set(applied);
  return { applied, pending: known.filter((name) => !done.has(name)), unknown: applied.filter((name) => !known.includes(name)) };
}

/**
 * Brings the schema up to date and returns the names of the migrations it applied. Refuses (UnknownMigrationsError)
 * a database a newer version migrated. Safe when several instances start at once: Kysely's PostgreSQL adapter
 * takes a transaction-scoped advisory lock around the whole run, so one instance migrates and the others
 * wait, then find nothing left to do.
 */
export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  const { unknown } = await migrationStatus(db);
  if (unknown.length > 0) throw new UnknownMigrationsError(unknown);
  return migrate(db, (migrator) => migrator.migrateToLatest());
}

/** Brings the schema up to the named migration and no further (tests of a later migration on existing rows). */
export async function migrateUpTo(db: Kysely<any>, name: string): Promise<void> {
  await migrate(db, (migrator) => migrator.migrateTo(name));
}

async function migrate(db: Kysely<any>, run: (migrator: Migrator) => Promise<MigrationResultSet>): Promise<string[]> {
  // The migration tables live in the current schema, named explicitly: Kysely otherwise takes a
  // kysely_migration table in any schema of the database for its own.
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  const migrator = new Migrator({
    db,
    provider: { getMigrations: migrationsInFolder },
    migrationTableSchema: rows[0]?.schema ?? 'public',
  });
  let { error, results } = await run(migrator);
  // Kysely looks for its migration table through every schema's tables: another schema's disappearance, or its
  // table's, says nothing about ours, so the run is tried again (see otherSchemaVanished).
  for (let attempt = 1; error && attempt < 5 && otherSchemaVanished(error, rows[0]?.schema); attempt++) ({ error, results } = await run(migrator));
  if (error) {
    const failed = results?.find((result) => result.status === 'Error');
    // The cause's message is named too: a failure before any migration ran (the lock, the migration table)
    // has no migration name, and a test runner prints the message, not the cause.
    const because = error instanceof Error ? `: ${error.message.slice(0, 300)}` : '';
    throw new Error(`Database migration ${failed?.migrationName ?? '(before any migration)'} failed${because}`, { cause: error });
  }
  return (results ?? []).filter((result) => result.status === 'Success').map((result) => result.migrationName);
}
