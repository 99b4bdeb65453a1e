import { TtlCache } from '../cache/ttl-cache.js';
import type { CacheStats } from '../metrics/gateway-metrics.js';
import type { Partner } from './partner.js';
import type { PartnerRepository } from './partner-repository.js';

/**
 * While the database is unreachable, a partner seen within this long is still answered from memory, so
 * bearer calls of active partners survive an outage. Entries dropped by a change on this instance are not
 * kept (a block here is never undone by staleness); a change made on another instance just before the
 * outage may go unseen until the database is back.
 */
export const STALE_IF_ERROR_MS = 5 * 60_000;

export interface CachedPartnerRepository extends PartnerRepository {
  /** Drops what is cached of a partner (a change announced by another instance). */
  invalidate(change: { login: string; id?: string }): void;
  /** The caches' hits and misses, for the metrics. */
  stats(): CacheStats;
}

/**
 * Partner records kept in memory for `ttlMs` (CACHE_TTL), so that the bearer path does not ask the
 * database on every request. Every write through this repository (the admin API's only path) drops the
 * partner's entries at once, so a change made on this instance applies to the very next request; a change
 * made on another instance applies within `ttlMs`.
 */
export function createCachedPartnerRepository(
  inner: PartnerRepository,
  ttlMs: number,
  now: () => number,
  onChange: (change: { login: string; id?: string }) => void = () => {},
): CachedPartnerRepository {
  // One cache per key, each keyed by the id or login itself: a prefixed key ("id:" + id) was a new string to
  // join and hash on every bearer call, where the token's own partner id is hashed once.
  const byId = new TtlCache<string, Partner | null>(ttlMs, 100_000, now, STALE_IF_ERROR_MS);
  const byLogin = new TtlCache<string, Partner | null>(ttlMs, 100_000, now, STALE_IF_ERROR_MS);
  const remember = (partner: Partner | undefined, cache: TtlCache<string, Partner | null>, key: string) => {
    cache.set(key, partner ?? null);
    if (partner) {
      byId.set(partner.id, partner);
      byLogin.set(partner.login, partner);
    }
    return partner;
  };
  const forget = (partner: { id?: string } | undefined, login: string) => {
    byLogin.delete(login);
    if (partner?.id) byId.delete(partner.id);
  };
  const lookup = async (cache: TtlCache<string, Partner | null>, key: string, load: () => Promise<Partner | undefined>) => {
    const cached = cache.get(key);
    if (cached !== undefined) return cached ?? undefined;
    try {
      return remember(await load(), cache, key);
    } catch (error) {
      const stale = cache.getStale(key);
      if (stale) return stale;
      throw error;
    }
  };
  return {
    stats: () => ({ hits: byId.hits + byLogin.hits, misses: byId.misses + byLogin.misses }),
    findByLogin: (login) => lookup(byLogin, login, () => inner.findByLogin(login)),
    findById: (id) => lookup(byId, id, () => inner.findById(id)),
    list: () => inner.list(),
    withRewardTypesOutside: (catalogue) => inner.withRewardTypesOutside(catalogue),
    count: () => inner.count(),
    async insert(partner) {
      byLogin.delete(partner.login);
      const created = await inner.insert(partner);
      onChange({ login: partner.login });
      return created;
    },
    async update(login, changes, options) {
      const before = await inner.findByLogin(login);
      forget(before, login);
      const updated = await inner.update(login, changes, options);
      forget(updated, login);
      onChange({ login, ...(before ? { id: before.id } : {}) });
      return updated;
    },
    async delete(login) {
      const before = await inner.findByLogin(login);
      forget(before, login);
      const deleted = await inner.delete(login);
      byLogin.delete(login);
      onChange({ login, ...(before ? { id: before.id } : {}) });
      return deleted;
    },
    invalidate: (change) => forget(change, change.login),
  };
}
