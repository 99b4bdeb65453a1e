import { TtlCache } from '../../cache/ttl-cache.js';
import type { CacheStats } from '../../metrics/gateway-metrics.js';
import { STALE_IF_ERROR_MS } from '../../partners/cached-partner-repository.js';
import type { TokenFamily, TokenFamilyRepository } from './token-family-repository.js';

/** Token families with their cache's controls: a change announced by another instance, and the metrics. */
export type CachedTokenFamilyRepository = TokenFamilyRepository & { invalidate(familyId: string): void; stats(): CacheStats };

/**
 * Token families (the revocation state of access tokens) kept in memory for `ttlMs` (CACHE_TTL): a logout or
 * a refresh-token reuse on this instance drops the entry at once; one on another instance is seen within
 * `ttlMs`.
 */
export function createCachedTokenFamilyRepository(
  inner: TokenFamilyRepository,
  ttlMs: number,
  now: () => number,
  onRevoked: (familyId: string) => void = () => {},
): CachedTokenFamilyRepository {
  // Revocation state is safety-critical: a stale "not revoked" is served during a database outage only for
  // families this instance has seen, for STALE_IF_ERROR_MS, as partners are.
  const cache = new TtlCache<string, TokenFamily | null>(ttlMs, 200_000, now, STALE_IF_ERROR_MS);
  return {
    start: (family, refresh) => inner.start(family, refresh),
    async spend(hash, next, at) {
      const result = await inner.spend(hash, next, at);
      if (result.outcome === 'reused') {
        cache.delete(result.family.id);
        onRevoked(result.family.id);
      }
      return result;
    },
    async find(id) {
      const cached = cache.get(id);
      if (cached !== undefined) return cached ?? undefined;
      try {
        const family = await inner.find(id);
        cache.set(id, family ?? null);
        return family;
      } catch (error) {
        // Null is a family seen absent: for an access-only family that is a live one, served stale like the rest.
        const stale = cache.getStale(id);
        if (stale !== undefined) return stale ?? undefined;
        throw error;
      }
    },
    // Never cached: it is asked only to revoke (RFC 7009), and then the database's answer is the one that counts.
    findRefreshToken: (hash) => inner.findRefreshToken(hash),
    async revoke(id, reason, unstored) {
      cache.delete(id);
      await inner.revoke(id, reason, unstored);
      cache.delete(id);
      onRevoked(id);
    },
    invalidate: (id) => cache.delete(id),
    stats: () => ({ hits: cache.hits, misses: cache.misses }),
    purgeExpired: (at) => inner.purgeExpired(at),
  };
}
