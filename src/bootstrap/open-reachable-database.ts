import type { Config } from '../config.js';
import { openDatabase, type DatabaseHandle } from '../db/database.js';
import { migrateToLatest, UnknownMigrationsError } from '../db/migrate.js';
import { databaseSetting, describeDatabase, type DatabaseTarget } from './backends.js';
import { causeOf, StartupProblem } from './startup-problem.js';

/** How long the start waits for the database's first answer (the pool's own connect timeout is 5 s). */
const FIRST_ANSWER_MS = 10_000;

/**
 * The configured database, opened and answering, with `migrate()` bringing it up to date; each way it can fail
 * (not opened, not reached, migrated by a newer version, a migration failing) is a StartupProblem naming the
 * setting to look at (DATABASE_URL, else DATA_DIR) and the cause in one line.
 *
 * @example
 * ```ts
 * const handle = await openReachableDatabase(config, databaseTarget(config));
 * await handle.migrate();
 * ```
 */
export async function openReachableDatabase(config: Config, target: DatabaseTarget): Promise<DatabaseHandle & { migrate(): Promise<string[]> }> {
  const setting = databaseSetting(target);
  const where = describeDatabase(target);
  let handle: DatabaseHandle;
  try {
    handle = await openDatabase({ url: config.DATABASE_URL, dataDir: config.DATA_DIR, poolSize: config.DATABASE_POOL_SIZE });
  } catch (error) {
    throw new StartupProblem(setting, `${setting}: cannot open ${where} (${causeOf(error)})`);
  }
  try {
    await handle.ping(FIRST_ANSWER_MS);
  } catch (error) {
    await handle.close().catch(() => {});
    throw new StartupProblem(setting, `${setting}: cannot reach ${where} (${causeOf(error)})`);
  }
  return {
    ...handle,
    async migrate() {
      try {
        return await migrateToLatest(handle.db);
      } catch (error) {
        if (error instanceof UnknownMigrationsError) throw new StartupProblem(setting, `${setting}: ${where}: ${error.message}`);
        throw new StartupProblem(setting, `${setting}: cannot migrate ${where} (${causeOf(error)})`);
      }
    },
  };
}
