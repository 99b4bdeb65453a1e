import { existsSync, openAsBlob, statSync } from 'node:fs';
import { join } from 'node:path';
import { CliError, print, type CliIo } from '@partner-gateway/client/cli/cli-io';
import { parseCommand } from '@partner-gateway/client/cli/parse-command';
import { lockDataDir } from './bootstrap/data-dir-lock.js';
import { askConfirmation } from './cli/ask-confirmation.js';
import { restorePglite, RestoreRefused } from './db/restore-pglite.js';

export const RESTORE_USAGE = `Usage: partner-gateway restore <file> [--yes]

Puts a backup made by partner-gateway backup into DATA_DIR (default ./data) as the embedded
database, with the gateway stopped (it refuses while a gateway holds DATA_DIR). The file is
unpacked and checked beside the current database first; the current one is then kept as
DATA_DIR/pglite.before-restore-<time>, so a restore can be undone by renaming it back. Replacing
a database asks first: --yes answers for a script. Start the gateway with the MASTER_KEY of the
gateway that was backed up (its keys are sealed with it). Not for PostgreSQL (DATABASE_URL): use
pg_restore. Files over 4 GiB are refused.
Exit codes: 0 restored, 1 refused (nothing changed), 2 usage error.

Example:
  DATA_DIR=./data partner-gateway restore backups/gateway-2026-11-28.tar.gz`;

/** A larger file is not a backup of a gateway's embedded database (and would not fit PGlite's memory). */
export const RESTORE_MAX_BYTES = 4 * 1024 ** 3;

/**
 * `partner-gateway restore <file> [--yes]`: runs in this process on DATA_DIR (not through the admin API: the
 * gateway is stopped), holding DATA_DIR's lock so that no gateway starts on it half-way.
 *
 * @example
 * ```sh
 * DATA_DIR=/var/lib/partner-gateway partner-gateway restore /var/backups/gateway.tar.gz --yes
 * ```
 */
export async function restoreCommand(argv: string[], io: CliIo): Promise<void> {
  const { values, positionals } = parseCommand(argv, {}, ['file'], RESTORE_USAGE);
  if (values.help) return print(io, RESTORE_USAGE);
  if (io.env.DATABASE_URL || io.env.DATABASE_URL_FILE) throw new CliError('DATABASE_URL is set: the gateway runs on PostgreSQL; restore it with pg_restore (docs/operations-database.md)', 2);
  const file = positionals[0]!;
  const size = fileSize(file);
  if (size > RESTORE_MAX_BYTES) throw new CliError(`${file} is larger than 4 GiB: not a backup of the embedded database`, 1);
  const dataDir = io.env.DATA_DIR || './data';
  const unlock = await lockDataDir(dataDir, { waitMs: 0 }).catch((error: unknown) => {
    throw new CliError(`DATA_DIR: ${(error as Error).message}`, 1);
  });
  try {
    if (existsSync(join(dataDir, 'pglite', 'PG_VERSION')) && values.yes !== true) {
      const question = `${dataDir} holds a database: replace it with ${file} (it is kept as pglite.before-restore-<time>)?`;
      if (!(await askConfirmation(io, question))) throw new CliError('Nothing changed. (Without a terminal, pass --yes.)', 1);
    }
    const report = await restorePglite(dataDir, await openAsBlob(file)).catch((error: unknown) => {
      if (error instanceof RestoreRefused) throw new CliError(`${error.message}. Nothing changed.`, 1);
      throw error;
    });
    print(
      io,
      [
        `Restored ${file} into ${dataDir}: ${report.migrations} migrations, ${report.partners} partners, ${report.auditEntries} audit entries, bank list version ${report.bankVersion ?? 'none'}.`,
        ...(report.previous ? [`The database that was there is kept in ${report.previous}.`] : []),
        'Start the gateway with the MASTER_KEY of the gateway that was backed up.',
      ].join('\n'),
    );
  } finally {
    unlock();
  }
}

function fileSize(file: string): number {
  try {
    return statSync(file).size;
  } catch (error) {
    throw new CliError(`Cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'})`, 2);
  }
}
