import { readdirSync } from 'node:fs';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Migrator, sql, type Kysely, type Migration, type MigrationResultSet } from 'kysely';

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
    provider: { getMigrations: migrationsInFolder },
    migrationTableSchema: rows[0]?.schema ?? 'public',
  });
  let { error, results } = await run(migrator);
  // Kysely looks for its migration table through every schema's tables (pg_get_serial_sequence on each): a schema
  // someone else drops meanwhile (another application, a test suite ending) fails that read. Another schema's
  // disappearance says nothing about ours, so the run is tried again.
  for (let attempt = 1; error && attempt < 5 && otherSchemaVanished(error, rows[0]?.schema); attempt++) ({ error, results } = await run(migrator));
  if (error) {
    const failed = results?.find((result) => result.status === 'Error');
    // The cause's message is named too: a failure before any migration ran (the lock, the migration table)
    // has no migration name, and a test runner prints the message, not the cause.
    const because = error instanceof Error ? `: ${error.message.slice(0, 300)}` : '';
    throw new Error(`Database migration ${failed?.migrationName ?? '(before any migration)'} failed${because}`, { cause: error });
  }
}

/** Whether `error` is PostgreSQL's "schema ... does not exist" about a schema other than `ours`. */
function otherSchemaVanished(error: unknown, ours: string | undefined): boolean {
  const vanished = /schema "([^"]+)" does not exist/.exec(error instanceof Error ? error.message : '')?.[1];
  return vanished !== undefined && vanished !== ours;
}
