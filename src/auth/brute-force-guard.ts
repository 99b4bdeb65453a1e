import { AppError, errors } from '../errors.js';
import { addressKey, isAddressAllowed } from '../partners/ip-allowlist.js';
import type { Partner } from '../partners/partner.js';
import { TtlCache } from '../cache/ttl-cache.js';
import type { ThrottleStore } from '../stores/throttle/throttle-store.js';
import { createWaitingRoom } from '../stores/throttle/waiting-room.js';

/**
 * Brute-force defence that cannot be turned against partners who share an address (NAT, a hosting company,
 * an integrator): who is counted depends on who is guessing what.
 *
 * - A password for login L from an address inside L's allowlist is counted per (address, L): only wrong
 *   passwords for L from that address can lock L's password logins there.
 * - A password from outside L's allowlist, or for an unknown login, is counted per address (IPv6 per /64) and
 *   per L; the login key only ever holds outsiders' failures, and only outsiders are refused by it.
 * - Garbage and invalid bearer tokens, undecryptable and replayed JWEs cost no argon2: they have a counter of
 *   their own per address, which makes further garbage 429 and never locks a password.
 *
 * A password check reserves its place in the count before argon2 runs and settles it after, atomically in the
 * store, so concurrency cannot multiply guesses; during a lock every password is answered 429 unhashed.
 */
export interface BruteForceGuard {
  /** Throws the 429 when a key this password check would count under is locked. */
  check(clientAddress: string, login?: string, partner?: Partner): Promise<void>;
  /**
   * Runs one password evaluation (`verify`, which says whether the password is right) holding a place in the
   * count: throws the 429 without running it when locked or when failures and checks in flight fill the
   * allowance; a false answer is counted as a failure, a true one gives the place back. When checks in flight
   * alone fill it (nobody failed: a partner's own burst of right passwords), it waits for a place for up to
   * BUSY_WAIT_MS, asking `remembered` each time whether another check has meanwhile proven this password.
   */
  attempt(
    clientAddress: string,
    login: string | undefined,
    partner: Partner | undefined,
    verify: () => Promise<boolean>,
    options?: { remembered?: () => boolean },
  ): Promise<boolean>;
  /** Counts a failure that cost no password check (a garbage token or JWE, a replay); 429 instead of `failure` when locked. */
  failCheap(failure: AppError, clientAddress: string): Promise<never>;
  /** After a fully successful call (password right, partner active, address allowed): forgets L's failures at this address. */
  succeeded(clientAddress: string, partner: Partner): Promise<void>;
}

/** The keys a password check for `login` from `clientAddress` counts under (see BruteForceGuard). */
export function passwordKeys(clientAddress: string, login?: string, partner?: Partner): string[] {
  const address = addressKey(clientAddress);
  if (partner !== undefined && login !== undefined && isAddressAllowed(clientAddress, partner.ipAllowlist)) return [`at:${address} ${login}`];
  return login === undefined ? [`addr:${address}`] : [`addr:${address}`, `login:${login}`];
}

const throttled = (ms: number) => errors.throttled(Math.max(1, Math.ceil(ms / 1000)));
/** How long a check waits for a place taken by checks in flight that have not failed. */
const BUSY_WAIT_MS = 10_000;
/** How often a waiting check asks the store again, for places held by other instances (this instance's wake it at once). */
const SLOW_POLL_MS = 250;

/**
 * `cleanForMs`: how long a key just reset after a success is trusted to stay clean, sparing the store a write
 * per successful call (CACHE_TTL). It is never used to skip a lock check: a lock set by another instance is
 * honoured at once.
 */
export function createBruteForceGuard(store: ThrottleStore, now: () => number, cleanForMs = 0): BruteForceGuard {
  const clean = new TtlCache<string, true>(cleanForMs, 100_000, now);
  const room = createWaitingRoom();
  return {
    async check(clientAddress, login, partner) {
      const locked = await store.lockedFor(passwordKeys(clientAddress, login, partner), now());
      if (locked > 0) throw throttled(locked);
    },
    async attempt(clientAddress, login, partner, verify, { remembered } = {}) {
      const keys = passwordKeys(clientAddress, login, partner);
      const deadline = Date.now() + BUSY_WAIT_MS;
      const since = room.ticket();
      // Behind this instance's checks already waiting on these keys: they go first, without asking the store.
      let waited = room.occupied(keys);
      let woken = waited ? await room.wait(keys, since, SLOW_POLL_MS, deadline) : 'released';
      let reservation = await store.reserve(keys, now());
      while (!reservation.granted && reservation.reason === 'busy' && Date.now() < deadline) {
        waited = true;
        // Woken when this instance gives a place back; the first in line also polls, jittered, for the others'.
        woken = await room.wait(keys, since, SLOW_POLL_MS * (0.75 + Math.random() / 2), deadline);
        if (remembered?.()) {
          // Proven right meanwhile by another check; still refused should a lock have come in between.
          const locked = await store.lockedFor(keys, now());
          if (locked > 0) throw throttled(locked);
          return true;
        }
        reservation = await store.reserve(keys, now());
      }
      if (!reservation.granted) {
        // Refused for a lock or for failures, not for places in flight, after waiting in line: the checks behind it
        // here would be refused alike, so the next one asks at once instead of sleeping until its own deadline.
        if (reservation.reason !== 'busy' && waited) room.released(keys);
        throw throttled(reservation.retryAfterMs);
      }
      // A place found by polling was given back by another instance, which wakes none of ours: there may be
      // more, so the next in line tries at once rather than after its own poll.
      if (woken === 'timed out') room.released(keys);
      let valid: boolean;
      try {
        valid = await verify();
      } catch (error) {
        // Not evaluated (the argon2 queue is full, say): the place is given back uncounted.
        await store.release(keys, reservation.id, now(), false).finally(() => room.released(keys));
        throw error;
      }
      // Only a failure makes a key unclean: a right password leaves the mark, and the next success within
      // CACHE_TTL skips its reset (a write per login otherwise). Skipping a reset forgets less, never more.
      if (!valid) for (const key of keys) clean.delete(key);
      await store.release(keys, reservation.id, now(), !valid).finally(() => room.released(keys));
      return valid;
    },
    async failCheap(failure, clientAddress) {
      const keys = [`badtoken:${addressKey(clientAddress)}`];
      const alreadyLocked = await store.lockedFor(keys, now());
      if (alreadyLocked > 0) throw throttled(alreadyLocked);
      await store.recordFailure(keys, now());
      throw failure;
    },
    async succeeded(clientAddress, partner) {
      if (!isAddressAllowed(clientAddress, partner.ipAllowlist)) return;
      const keys = passwordKeys(clientAddress, partner.login, partner);
      if (cleanForMs > 0 && keys.every((key) => clean.get(key))) return;
      await store.reset(keys);
      for (const key of keys) clean.set(key, true);
    },
  };
}
