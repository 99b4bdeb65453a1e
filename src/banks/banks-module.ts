import type { Kysely } from 'kysely';
import type { BankListEntry } from '@partner-gateway/contract/admin-bank-versions';
import type { Config } from '../config.js';
import type { ChangeFeed } from '../db/change-feed.js';
import type { Database } from '../db/schema.js';
import { createBankAdmin, type BankAdmin } from './bank-admin.js';
import { createBankCatalog, type BankCatalog } from './bank-catalog.js';
import { createBankListService, type BankListService } from './bank-list-service.js';
import { createBankVersionRepository } from './bank-version-repository.js';
import type { Bank } from './bank.js';

const DAY_MS = 86_400_000;

/** The bank list, wired: the catalog partners read, the versioned list every change goes through, and the admin API's side. */
export interface BanksModule {
  /** The current version's body and ETag, cached for CACHE_TTL_MS; a change here reaches the other instances. */
  catalog: BankCatalog;
  /** The versioned list: preview and apply any change (mergeRegistry, an edit...) as a new version; what a sync calls. */
  lists: BankListService;
  admin: BankAdmin;
  /** Version 1 from the shipped list on an empty table (or from the table as found); true when the defaults were written. */
  seed(banks: readonly Bank[]): Promise<boolean>;
  /** Deletes versions older than BANK_VERSION_RETENTION_DAYS (never the current one). */
  purgeVersions(): Promise<number>;
}

/**
 * Builds the banks module over `db` and subscribes it to the change feed, so that a list changed on another
 * instance is read again here.
 *
 * @example
 * ```ts
 * const banks = createBanks(handle.db, feed, config, Date.now);
 * (await banks.catalog.published()).body; // '{"banks":[{"name":"Сбербанк","bic":"044525225"},...]}'
 * ```
 */
export function createBanks(db: Kysely<Database>, feed: ChangeFeed, config: Config, now: () => number): BanksModule {
  const versions = createBankVersionRepository(db);
  const catalog = createBankCatalog(() => versions.current(), config.CACHE_TTL_MS, now);
  feed.subscribe('banks', () => catalog.invalidate());
  const lists = createBankListService(versions, now, () => {
    catalog.invalidate();
    feed.publish({ kind: 'banks' });
  });
  return {
    catalog,
    lists,
    admin: createBankAdmin(db, lists, versions),
    seed: (banks) => lists.seed(banks.map(toEntry)),
    purgeVersions: () => versions.purgeBefore(new Date(now() - config.BANK_VERSION_RETENTION_DAYS * DAY_MS)),
  };
}

function toEntry(bank: Bank): BankListEntry {
  return { bic: bank.bic, name: bank.name, nameEn: bank.nameEn ?? null, sbpMemberId: bank.sbpMemberId ?? null, registryName: null, sbpParticipant: null };
}
