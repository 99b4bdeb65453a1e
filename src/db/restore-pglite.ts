import { existsSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { openDatabase } from './database.js';
import { migrationStatus } from './migrate.js';

/** What a restored database holds, told to the operator before the gateway serves it. */
export interface RestoreReport {
  /** Migrations the backup had applied. */
  migrations: number;
  partners: number;
  auditEntries: number;
  /** The bank list version partners will be served (undefined: the backup had no bank list yet). */
  bankVersion: number | undefined;
  /** Where the database that was in DATA_DIR before went (undefined when there was none). */
  previous: string | undefined;
}

/** Why a restore was refused: the file is not a backup this version can serve. Nothing in DATA_DIR changed. */
export class RestoreRefused extends Error {
  override name = 'RestoreRefused';
}

const GZIP_MAGIC = [0x1f, 0x8b];

/**
 * Restores `archive` (made by `backupPglite`) into `dataDir`: unpacked and opened beside the current database
 * first, checked (it opens, and no newer version migrated it), then swapped in by renames. The database that
 * was there is kept as `pglite.before-restore-<time>` so that the restore can be undone; the caller has
 * confirmed replacing it. Refuses (RestoreRefused) anything else, changing nothing. The gateway must not be
 * running on `dataDir` (the caller holds its lock).
 *
 * @example
 * ```ts
 * const report = await restorePglite('./data', new Blob([readFileSync('gateway-backup.tar.gz')]));
 * ```
 */
export async function restorePglite(dataDir: string, archive: Blob, now: () => Date = () => new Date()): Promise<RestoreReport> {
  const head = new Uint8Array(await archive.slice(0, 2).arrayBuffer());
  if (head[0] !== GZIP_MAGIC[0] || head[1] !== GZIP_MAGIC[1]) throw new RestoreRefused('The file is not a backup of the embedded database (not gzip): make one with partner-gateway backup <file>');
  const staging = join(dataDir, `.restoring-${process.pid}`);
  rmSync(staging, { recursive: true, force: true });
  try {
    const contents = await inspect(staging, new Blob([archive], { type: 'application/gzip' }));
    const target = join(dataDir, 'pglite');
    let previous: string | undefined;
    if (existsSync(target)) {
      previous = join(dataDir, `pglite.before-restore-${now().toISOString().replace(/[:.]/g, '-')}`);
      renameSync(target, previous);
    }
    renameSync(join(staging, 'pglite'), target);
    return { ...contents, previous };
  } finally {
    rmSync(staging, { recursive: true, force: true });
  }
}

/** Opens the unpacked backup in `staging` and reads what it holds; refuses one that is not a gateway's database. */
async function inspect(staging: string, archive: Blob): Promise<Omit<RestoreReport, 'previous'>> {
  let handle;
  try {
    handle = await openDatabase({ dataDir: staging, image: archive });
  } catch (error) {
    throw new RestoreRefused(`The file is not a backup of the embedded database (${(error as Error).message.split('\n')[0]})`);
  }
  try {
    const status = await migrationStatus(handle.db);
    if (status.applied.length === 0) throw new RestoreRefused('The file holds no gateway database (no migrations applied)');
    if (status.unknown.length > 0) {
      throw new RestoreRefused(`The backup was taken from a newer version of the gateway (${status.unknown.join(', ')} unknown to this version): restore it with that version`);
    }
    const count = async (table: 'partners' | 'audit_log') => Number((await sql<{ n: string }>`select count(*) as n from ${sql.table(table)}`.execute(handle.db)).rows[0]?.n ?? 0);
    const version = (await sql<{ n: number | null }>`select max(number) as n from bank_versions`.execute(handle.db)).rows[0]?.n;
    return { migrations: status.applied.length, partners: await count('partners'), auditEntries: await count('audit_log'), bankVersion: version ?? undefined };
  } finally {
    await handle.close();
  }
}
