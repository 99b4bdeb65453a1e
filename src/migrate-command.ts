import { CliError, print, type CliIo } from '@partner-gateway/client/cli/cli-io';
import { connectionUrlProblem } from './bootstrap/setting-problems.js';
import { databaseTarget, describeDatabase } from './bootstrap/backends.js';
import { lockDataDir } from './bootstrap/data-dir-lock.js';
import { openReachableDatabase } from './bootstrap/open-reachable-database.js';
import { readSecretFiles } from './bootstrap/secret-files.js';
import { StartupProblem } from './bootstrap/startup-problem.js';
import { loadConfig } from './config.js';
import { migrationStatus } from './db/migrate.js';

export const MIGRATE_USAGE = [
  'Usage: partner-gateway migrate [--dry-run]',
  '',
  'Brings the database up to this version\'s schema, as every gateway start does: once, before a new version',
  'serves (a Kubernetes Job, a deploy step). --dry-run lists the pending migrations and changes nothing.',
  'Reads DATABASE_URL (or DATABASE_URL_FILE), else the embedded database in DATA_DIR (not while a gateway holds it).',
  'Exit codes: 0 done (or nothing to do), 1 refused (not reachable, or migrated by a newer version), 2 usage error.',
].join('\n');

/**
 * `partner-gateway migrate [--dry-run]`: runs in this process on the database the environment names (not
 * through the admin API: it runs before a gateway of this version serves). Only the database settings are
 * read, so that a migration job needs no admin token or master key.
 *
 * @example
 * ```sh
 * DATABASE_URL_FILE=/run/secrets/database-url partner-gateway migrate --dry-run
 * ```
 */
export async function migrateCommand(argv: string[], io: CliIo): Promise<void> {
  if (argv.includes('--help') || argv.includes('-h')) return print(io, MIGRATE_USAGE);
  const unknown = argv.filter((argument) => argument !== '--dry-run');
  if (unknown.length > 0) throw new CliError(`Unknown option ${unknown[0]}\n\n${MIGRATE_USAGE}`, 2);
  const dryRun = argv.includes('--dry-run');
  const config = databaseConfig(io.env);
  const target = databaseTarget(config);
  const unlock = target.kind === 'pglite' ? await lockDataDir(config.DATA_DIR, { waitMs: 0 }).catch((error: unknown) => refuse(`DATA_DIR: ${(error as Error).message}`)) : () => {};
  try {
    const handle = await openReachableDatabase(config, target).catch((error: unknown) => refuse(error instanceof StartupProblem ? error.message : String(error)));
    try {
      const status = await migrationStatus(handle.db);
      print(io, `Database: ${describeDatabase(target)}: ${status.applied.length} migrations applied, ${status.pending.length} pending`);
      if (status.unknown.length > 0) {
        refuse(`The database was migrated by a newer version of the gateway: ${status.unknown.join(', ')} unknown to this version; run that version, or restore a backup taken before the upgrade`);
      }
      if (status.pending.length === 0) return print(io, 'Up to date: nothing to apply.');
      if (dryRun) return print(io, [`Would apply:`, ...status.pending.map((name) => `  ${name}`), '(--dry-run: nothing changed)'].join('\n'));
      const applied = await handle.migrate().catch((error: unknown) => refuse(error instanceof StartupProblem ? error.message : String(error)));
      print(io, ['Applied:', ...applied.map((name) => `  ${name}`)].join('\n'));
    } finally {
      await handle.close();
    }
  } finally {
    unlock();
  }
}

function refuse(message: string): never {
  throw new CliError(message, 1);
}

/** DATABASE_URL (or its file), DATA_DIR and the pool size, checked as the gateway checks them, and nothing else. */
function databaseConfig(env: Record<string, string | undefined>) {
  const files = readSecretFiles({ DATABASE_URL: env.DATABASE_URL, DATABASE_URL_FILE: env.DATABASE_URL_FILE });
  const url = files.values.DATABASE_URL ?? (env.DATABASE_URL || undefined);
  const problems = [...files.problems];
  if (url !== undefined) {
    const problem = connectionUrlProblem('DATABASE_URL', url, ['postgres:', 'postgresql:'], 'postgres://gateway@db.example:5432/gateway');
    if (problem) problems.push(problem);
  }
  if (problems.length > 0) throw new CliError(`Invalid configuration:\n${problems.map((problem) => `  - ${problem}`).join('\n')}`, 2);
  // The other settings at their defaults: only these three matter to a migration.
  return { ...loadConfig({ DATA_DIR: env.DATA_DIR, DATABASE_POOL_SIZE: '1' }), DATABASE_URL: url };
}
