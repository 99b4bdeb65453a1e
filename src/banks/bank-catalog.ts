import type { BankListEntry } from '@partner-gateway/contract/admin-bank-versions';
import { STALE_IF_ERROR_MS } from '../partners/cached-partner-repository.js';
import type { CacheStats } from '../metrics/gateway-metrics.js';
import { publishedBanks, strongEtag } from './bank-body.js';
import type { CurrentList } from './bank-version-repository.js';

import { BANK_OPT_IN_FIELDS as OPT_IN_FIELDS, type BankOptInField as OptInField } from '@partner-gateway/contract/public-api';

/** A body partners get, its strong ETag and the list version it is of. */
export interface PublishedBanks {
  version: number;
  body: string;
  /** `body` as UTF-8 bytes, made once: Node writes them as they are, where a string is measured and encoded per answer. */
  bytes: Buffer;
  etag: string;
}

/** A body, its bytes and ETag, for `version`. */
function publishedAs(version: number, body: string, etag = strongEtag(body)): PublishedBanks {
  return { version, body, bytes: Buffer.from(body), etag };
}

export interface BankCatalog {
  /**
   * The banks response of the current version: the spec's body `{"banks":[{"name","bic"}...]}` precomputed when
   * the version was made, or, with `fields`, that body with those fields added to every bank (built once per
   * version and set of fields).
   */
  published(fields?: readonly OptInField[]): Promise<PublishedBanks>;
  /** The current version's number and list. */
  current(): Promise<CurrentList>;
  invalidate(): void;
  /** For the metrics: reads of the list answered from memory, and those that went to the database. */
  stats(): CacheStats;
}

interface Cached extends CurrentList {
  /** The spec's body of this version, made once per read of the list, answered as it is (no object per call). */
  plain: PublishedBanks;
  variants: Map<string, PublishedBanks>;
}

/**
 * The current list version kept in memory for `ttlMs` (CACHE_TTL) at most, dropped at once by a change here or on
 * another instance (the change feed). A partner's call costs a map lookup: the body and its ETag are the version's.
 */
export function createBankCatalog(load: () => Promise<CurrentList>, ttlMs: number, now: () => number, participantsRequired = false): BankCatalog {
  let cached: (Cached & { expiresAt: number }) | undefined;
  // The last version read, kept through invalidations for STALE_IF_ERROR_MS: what partners get while the
  // database is unreachable (the list changes rarely, and an old list beats no list).
  let lastKnown: (Cached & { readAt: number }) | undefined;
  let loading: Promise<Cached> | undefined;
  let generation = 0;
  const stats: CacheStats = { hits: 0, misses: 0 };

  async function read(): Promise<Cached> {
    if (cached && cached.expiresAt > now()) {
      stats.hits++;
      return cached;
    }
    stats.misses++;
    // One load in flight however many requests wait for it.
    loading ??= (async () => {
      const started = generation;
      try {
        let current: CurrentList;
        try {
          current = await load();
        } catch (error) {
          if (lastKnown && now() - lastKnown.readAt < STALE_IF_ERROR_MS) return lastKnown;
          throw error;
        }
        const entry: Cached = { ...current, plain: publishedAs(current.version, current.body, current.etag), variants: new Map() };
        if (started === generation) cached = { ...entry, expiresAt: now() + ttlMs };
        lastKnown = { ...entry, readAt: now() };
        return entry;
      } finally {
        loading = undefined;
      }
    })();
    return loading;
  }

  return {
    async published(fields = []) {
      const entry = await read();
      if (fields.length === 0) return entry.plain;
      const key = OPT_IN_FIELDS.filter((field) => fields.includes(field)).join(',');
      let variant = entry.variants.get(key);
      if (!variant) {
        const body = bodyWith(publishedBanks(entry.list, participantsRequired), key.split(',') as OptInField[]);
        variant = publishedAs(entry.version, body);
        entry.variants.set(key, variant);
      }
      return variant;
    },
    current: read,
    invalidate() {
      generation++;
      cached = undefined;
    },
    stats: () => ({ ...stats }),
  };
}

function bodyWith(list: readonly BankListEntry[], fields: readonly OptInField[]): string {
  return JSON.stringify({
    banks: list.map((bank) => {
      const entry: Record<string, string | null> = { name: bank.name, bic: bank.bic };
      for (const field of fields) entry[field] = bank[field] ?? null;
      return entry;
    }),
  });
}
