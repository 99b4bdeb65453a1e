import { TtlCache } from '../cache/ttl-cache.js';
import type { TokenFamily, TokenFamilyRepository } from './token-family-repository.js';

/**
 * Token families (the revocation state of access tokens) kept in memory for `ttlMs` (CACHE_TTL): a logout or
 * a refresh-token reuse on this instance drops the entry at once; one on another instance is seen within
 * `ttlMs`.
 */
export function createCachedTokenFamilyRepository(inner: TokenFamilyRepository, ttlMs: number, now: () => number): TokenFamilyRepository {
  const cache = new TtlCache<string, TokenFamily | null>(ttlMs, 200_000, now);
  return {
    start: (family, refresh) => inner.start(family, refresh),
    async spend(hash, next, at) {
      const result = await inner.spend(hash, next, at);
      if (result.outcome === 'reused') cache.delete(result.family.id);
      return result;
    },
    async find(id) {
      const cached = cache.get(id);
      if (cached !== undefined) return cached ?? undefined;
      const family = await inner.find(id);
      cache.set(id, family ?? null);
      return family;
    },
    async revoke(id, reason) {
      cache.delete(id);
      await inner.revoke(id, reason);
      cache.delete(id);
    },
    purgeExpired: (at) => inner.purgeExpired(at),
  };
}
