import { STALE_IF_ERROR_MS } from '../partners/cached-partner-repository.js';
import type { CacheStats } from '../metrics/gateway-metrics.js';
import type { Bank } from './bank.js';
import type { BankRepository, StoredBank } from './bank-repository.js';

export interface BankCatalog extends BankRepository {
  /** The banks response body, `{"banks":[{"name","bic"}...]}`, serialized once per change. */
  publicJson(): Promise<string>;
  invalidate(): void;
  /** For the metrics: reads of the list answered from memory, and those that went to the database. */
  stats(): CacheStats;
}

/**
 * The bank list kept in memory with its response body serialized once, for `ttlMs` (CACHE_TTL) at most;
 * every write through this repository drops it at once.
 */
export function createCachedBankRepository(inner: BankRepository, ttlMs: number, now: () => number, onChange: () => void = () => {}): BankCatalog {
  let cached: { banks: StoredBank[]; json: string; expiresAt: number } | undefined;
  // The last list read, kept through invalidations for STALE_IF_ERROR_MS: what partners get while the
  // database is unreachable (the list changes rarely, and an old list beats no list).
  let lastKnown: { banks: StoredBank[]; json: string; readAt: number } | undefined;
  let loading: Promise<{ banks: StoredBank[]; json: string }> | undefined;
  let version = 0;
  const stats: CacheStats = { hits: 0, misses: 0 };

  async function load() {
    if (cached && cached.expiresAt > now()) {
      stats.hits++;
      return cached;
    }
    stats.misses++;
    // One load in flight however many requests wait for it.
    loading ??= (async () => {
      const started = version;
      try {
        let banks: StoredBank[];
        try {
          banks = await inner.list();
        } catch (error) {
          if (lastKnown && now() - lastKnown.readAt < STALE_IF_ERROR_MS) return lastKnown;
          throw error;
        }
        const json = JSON.stringify({ banks: banks.map((bank) => ({ name: bank.name, bic: bank.bic })) });
        if (started === version) cached = { banks, json, expiresAt: now() + ttlMs };
        lastKnown = { banks, json, readAt: now() };
        return { banks, json };
      } finally {
        loading = undefined;
      }
    })();
    return loading;
  }

  const invalidate = () => {
    version++;
    cached = undefined;
  };
  const writing = async <T>(write: () => Promise<T>): Promise<T> => {
    try {
      return await write();
    } finally {
      invalidate();
      onChange();
    }
  };

  return {
    list: async () => (await load()).banks,
    publicJson: async () => (await load()).json,
    count: () => inner.count(),
    add: (bank: Bank) => writing(() => inner.add(bank)),
    remove: (bic: string) => writing(() => inner.remove(bic)),
    apply: (banks, mode) => writing(() => inner.apply(banks, mode)),
    seedIfEmpty: (banks) => writing(() => inner.seedIfEmpty(banks)),
    invalidate,
    stats: () => ({ ...stats }),
  };
}
