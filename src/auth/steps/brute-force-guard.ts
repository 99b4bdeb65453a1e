import { AppError, errors } from '../../errors.js';
import { isAddressAllowed } from '../../partners/ip-allowlist.js';
import type { Partner } from '../../partners/partner.js';
import { TtlCache } from '../../cache/ttl-cache.js';
import type { ThrottleStore } from '../../stores/throttle/throttle-store.js';

/**
 * Brute-force defence. Failed authentications are counted per client address (whatever login it tries) and
 * per login, but a login's counter only counts failures from addresses outside that partner's allowlist, and
 * a login lockout only applies to callers outside it. So an attacker locks out their own address and the
 * login for everyone like them, never the partner calling from its own allowlisted address.
 */
export interface BruteForceGuard {
  /** Throws the 429 when the address, or the login for a caller outside its allowlist, is locked. */
  check(clientAddress: string, login?: string, partner?: Partner): Promise<void>;
  /** Counts a failure; throws the 429 instead of `failure` when a lock is in force. */
  fail(failure: AppError, clientAddress: string, login?: string, partner?: Partner): Promise<never>;
  succeeded(clientAddress: string, login: string): Promise<void>;
}

/**
 * `cleanForMs`: how long a key seen with no failures and no lock is trusted to stay so without asking the
 * store again (CACHE_TTL). Failures recorded by this instance drop that at once; a lock set by another
 * instance is honoured here within `cleanForMs`. It spares the store two round trips per successful call.
 */
export function createBruteForceGuard(store: ThrottleStore, now: () => number, cleanForMs = 0): BruteForceGuard {
  const clean = new TtlCache<string, true>(cleanForMs, 100_000, now);
  const allClean = (keys: string[]) => cleanForMs > 0 && keys.every((key) => clean.get(key));
  const keysFor = (clientAddress: string, login?: string, partner?: Partner) => {
    const keys = [`addr:${clientAddress}`];
    const insideAllowlist = partner !== undefined && isAddressAllowed(clientAddress, partner.ipAllowlist);
    if (login !== undefined && !insideAllowlist) keys.push(`login:${login}`);
    return keys;
  };
  return {
    async check(clientAddress, login, partner) {
      const keys = keysFor(clientAddress, login, partner);
      if (allClean(keys)) return;
      const locked = await store.lockedFor(keys, now());
      if (locked > 0) throw errors.throttled(Math.ceil(locked / 1000));
    },
    async fail(failure, clientAddress, login, partner) {
      const keys = keysFor(clientAddress, login, partner);
      for (const key of keys) clean.delete(key);
      const alreadyLocked = await store.lockedFor(keys, now());
      if (alreadyLocked > 0) throw errors.throttled(Math.ceil(alreadyLocked / 1000));
      await store.recordFailure(keys, now());
      throw failure;
    },
    async succeeded(clientAddress, login) {
      const keys = [`addr:${clientAddress}`, `login:${login}`];
      if (allClean(keys)) return;
      await store.reset(keys);
      for (const key of keys) clean.set(key, true);
    },
  };
}
