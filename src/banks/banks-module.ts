import type { Kysely } from 'kysely';
import type { Config } from '../config.js';
import type { ChangeFeed } from '../db/change-feed.js';
import type { Database } from '../db/schema.js';
import { createBankAdmin, type BankAdmin } from './bank-admin.js';
import { createBankCatalog, type BankCatalog } from './bank-catalog.js';
import { createBankListService, type BankListService } from './bank-list-service.js';
import { createBankVersionRepository } from './bank-version-repository.js';
import type { Bank } from './bank.js';
import { freshBank } from './bank-list-edits.js';
import type { DatabaseKind } from '../db/database.js';
import { createBankFileReader } from './import/bank-file-reader.js';
import { createBankSyncRepository } from './sync/bank-sync-repository.js';
import { createBankSync, type BankSync, type BankSyncDependencies } from './sync/bank-sync.js';
import { createAdmissionRepository } from './admission/admission-repository.js';
import { createBankAdmissions, type BankAdmissions } from './admission/bank-admissions.js';
import { createBankParticipants, type BankParticipants } from './participants/bank-participants.js';
import { createParticipantsRepository } from './participants/participants-repository.js';
import { createParticipantsSync, type ParticipantsSync, type ParticipantsSyncDependencies } from './participants/participants-sync.js';

const DAY_MS = 86_400_000;

/** The bank list, wired: the catalog partners read, the versioned list every change goes through, and the admin API's side. */
export interface BanksModule {
  /** The current version's body and ETag, cached for CACHE_TTL_MS; a change here reaches the other instances. */
  catalog: BankCatalog;
  /** The versioned list: preview and apply any change (mergeRegistry, an edit...) as a new version; what a sync calls. */
  lists: BankListService;
  admin: BankAdmin;
  /** The review queue of new registry banks and the exclusions (admit, exclude; BANKS_AUTO_ADMIT). */
  admissions: BankAdmissions;
  /** The registry sync (BANKS_SYNC_URL): run now, preview, status, held runs, and the schedule's tick. */
  sync: BankSync;
  /** The settlement bank's participant list: imports, name-match proposals, readings (src/banks/participants/). */
  participants: BankParticipants;
  /** Its sync (BANKS_PARTICIPANTS_URL): run now, and the schedule's tick. */
  participantsSync: ParticipantsSync;
  /** Version 1 from the shipped list on an empty table (or from the table as found); true when the defaults were written. */
  seed(banks: readonly Bank[]): Promise<boolean>;
  /** Deletes versions and sync runs older than BANK_VERSION_RETENTION_DAYS (never the current version, never a held run). */
  purgeVersions(): Promise<number>;
}

/** What the registry sync needs from outside the module: which database (for its lock), how to download, who hears of runs. */
export interface BankSyncWiring {
  kind: DatabaseKind;
  fetchSource: BankSyncDependencies['fetchSource'];
  onRun: BankSyncDependencies['onRun'];
  /** Downloads BANKS_PARTICIPANTS_URL (the gateway passes participantsFetcher; none: a run fails, saying so). */
  fetchParticipants?: ParticipantsSyncDependencies['fetchList'];
  onParticipantsRun?: ParticipantsSyncDependencies['onRun'];
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
export function createBanks(db: Kysely<Database>, feed: ChangeFeed, config: Config, now: () => number, wiring: BankSyncWiring): BanksModule {
  const versions = createBankVersionRepository(db, config.BANKS_PARTICIPANTS_REQUIRED);
  const catalog = createBankCatalog(() => versions.current(), config.CACHE_TTL_MS, now, config.BANKS_PARTICIPANTS_REQUIRED);
  feed.subscribe('banks', () => catalog.invalidate());
  const lists = createBankListService(versions, now, () => {
    catalog.invalidate();
    feed.publish({ kind: 'banks' });
  });
  const runs = createBankSyncRepository(db, wiring.kind);
  // Files are read in worker threads under limits of their own (src/banks/import/bank-file-reader.ts).
  const reader = createBankFileReader({ maxBytes: config.BANKS_IMPORT_MAX_BYTES });
  const admissionRepository = createAdmissionRepository(db);
  const admissions = createBankAdmissions({ repository: admissionRepository, lists, autoAdmit: config.BANKS_AUTO_ADMIT, now });
  const sync = createBankSync({
    runs,
    lists,
    readSource: (bytes) => reader.registrySource(bytes),
    fetchSource: wiring.fetchSource,
    onRun: wiring.onRun,
    admission: admissions,
    now,
    settings: { url: config.BANKS_SYNC_URL, intervalMs: config.BANKS_SYNC_INTERVAL * 1000, maxRemovals: config.BANKS_SYNC_MAX_REMOVALS, minBanks: config.BANKS_SYNC_MIN_BANKS },
  });
  const participantRuns = createParticipantsRepository(db, wiring.kind);
  const readList = (bytes: Uint8Array, contentType: string | undefined) => reader.participants(bytes, contentType);
  const participantSettings = {
    url: config.BANKS_PARTICIPANTS_URL,
    intervalMs: config.BANKS_PARTICIPANTS_SYNC_INTERVAL * 1000,
    required: config.BANKS_PARTICIPANTS_REQUIRED,
    maxRemovals: config.BANKS_SYNC_MAX_REMOVALS,
    minBanks: config.BANKS_SYNC_MIN_BANKS,
  };
  const participants = createBankParticipants({
    lists,
    repository: participantRuns,
    settings: participantSettings,
    now,
    readList,
    // A queued bank the list names by BIC shows its member id in the queue, and is admitted with it.
    onApplied: (entries) => admissionRepository.noteMemberIds(entries.filter((entry) => entry.bic !== null).map((entry) => ({ bic: entry.bic!, memberId: entry.memberId }))),
  });
  const participantsSync = createParticipantsSync({
    participants,
    repository: participantRuns,
    fetchList: wiring.fetchParticipants ?? (() => Promise.reject(new Error('no fetcher is wired for the participant list'))),
    readList,
    settings: participantSettings,
    now,
    onRun: wiring.onParticipantsRun ?? (() => undefined),
  });
  return {
    catalog,
    lists,
    admin: createBankAdmin(db, lists, versions, reader, admissions),
    admissions,
    sync,
    participants,
    participantsSync,
    seed: (banks) => lists.seed(banks.map(freshBank)),
    async purgeVersions() {
      const cutoff = new Date(now() - config.BANK_VERSION_RETENTION_DAYS * DAY_MS);
      return (await versions.purgeBefore(cutoff)) + (await runs.purgeBefore(cutoff)) + (await participantRuns.purgeBefore(cutoff));
    },
  };
}
