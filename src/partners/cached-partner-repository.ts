import { TtlCache } from '../cache/ttl-cache.js';
import type { Partner } from './partner.js';
import type { PartnerRepository } from './partner-repository.js';

/**
 * Partner records kept in memory for `ttlMs` (CACHE_TTL), so that the bearer path does not ask the
 * database on every request. Every write through this repository (the admin API's only path) drops the
 * partner's entries at once, so a change made on this instance applies to the very next request; a change
 * made on another instance applies within `ttlMs`.
 */
export function createCachedPartnerRepository(inner: PartnerRepository, ttlMs: number, now: () => number): PartnerRepository & { invalidateAll(): void; cache: TtlCache<string, Partner | null> } {
  const cache = new TtlCache<string, Partner | null>(ttlMs, 200_000, now);
  const byId = (id: string) => `id:${id}`;
  const byLogin = (login: string) => `login:${login}`;
  const remember = (partner: Partner | undefined, key: string) => {
    cache.set(key, partner ?? null);
    if (partner) {
      cache.set(byId(partner.id), partner);
      cache.set(byLogin(partner.login), partner);
    }
    return partner;
  };
  const forget = (partner: Partner | undefined, login: string) => {
    cache.delete(byLogin(login));
    if (partner) cache.delete(byId(partner.id));
  };
  return {
    cache,
    async findByLogin(login) {
      const cached = cache.get(byLogin(login));
      return cached !== undefined ? (cached ?? undefined) : remember(await inner.findByLogin(login), byLogin(login));
    },
    async findById(id) {
      const cached = cache.get(byId(id));
      return cached !== undefined ? (cached ?? undefined) : remember(await inner.findById(id), byId(id));
    },
    list: () => inner.list(),
    count: () => inner.count(),
    async insert(partner) {
      cache.delete(byLogin(partner.login));
      return inner.insert(partner);
    },
    async update(login, changes) {
      const before = await inner.findByLogin(login);
      forget(before, login);
      const updated = await inner.update(login, changes);
      forget(updated, login);
      return updated;
    },
    async delete(login) {
      forget(await inner.findByLogin(login), login);
      const deleted = await inner.delete(login);
      cache.delete(byLogin(login));
      return deleted;
    },
    invalidateAll: () => cache.clear(),
  };
}
