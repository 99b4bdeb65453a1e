import type { Kysely } from 'kysely';
import type { Config } from '../config.js';
import type { ChangeFeed } from '../db/change-feed.js';
import type { Database } from '../db/schema.js';
import { createBankAdmin, type BankAdmin } from './bank-admin.js';
import { createBankRepository } from './bank-repository.js';
import { createCachedBankRepository, type BankCatalog } from './cached-bank-repository.js';

/** The bank list, wired: the catalog partners read and the admin API's write side. */
export interface BanksModule {
  /** The list and its serialized response body, cached for CACHE_TTL_MS; a change here reaches the other instances. */
  catalog: BankCatalog;
  admin: BankAdmin;
}

/**
 * Builds the banks module over `db` and subscribes it to the change feed, so that a list changed on another
 * instance is read again here.
 *
 * @example
 * ```ts
 * const banks = createBanks(handle.db, feed, config, Date.now);
 * await banks.catalog.publicJson(); // '{"banks":[{"name":"Сбербанк","bic":"044525225"},...]}'
 * ```
 */
export function createBanks(db: Kysely<Database>, feed: ChangeFeed, config: Config, now: () => number): BanksModule {
  const catalog = createCachedBankRepository(createBankRepository(db), config.CACHE_TTL_MS, now, () => feed.publish({ kind: 'banks' }));
  feed.subscribe('banks', () => catalog.invalidate());
  return { catalog, admin: createBankAdmin(catalog) };
}
