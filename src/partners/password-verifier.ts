import { createHmac, randomBytes } from 'node:crypto';
import { TtlCache } from '../cache/ttl-cache.js';
import type { CacheStats } from '../metrics/gateway-metrics.js';
import { errors } from '../errors.js';
import type { Partner } from './partner.js';
import { verifyPassword } from './password-hasher.js';

export interface PasswordVerifier {
  /**
   * One argon2 verification (against a dummy hash when there is no partner), run within the concurrency
   * bound. With `remember`, a success is remembered for a while so that the same password sent again (the
   * encrypted-password banks scheme sends it on every call) is accepted without hashing.
   */
  verify(partner: Partner | undefined, password: string, options?: { remember?: boolean }): Promise<boolean>;
  /** True when this password was verified right for this partner recently (with `remember`): no argon2 needed. */
  recall(partner: Partner, password: string): boolean;
  /** For the metrics: verifications running and waiting now, and lookups of remembered successes. */
  stats(): { running: number; waiting: number; remembered: CacheStats };
}

export interface PasswordVerifierOptions {
  /** argon2 verifications running at once (each holds a libuv thread and ~19 MiB). */
  concurrency: number;
  /** Verifications allowed to wait; beyond that the answer is 503 with Retry-After rather than unbounded latency. */
  maxQueue: number;
  /** How long a successful check is remembered (0 disables it). */
  rememberMs: number;
  now: () => number;
}

/**
 * Runs argon2 off the event loop with a bound, and remembers recent successes. What is remembered is a keyed
 * HMAC of (partner id, password hash, password) under a random per-process key: never the password itself,
 * and a new password (a new hash) or a restart forgets it. Failures are never remembered.
 *
 * After a partner rotated its password, the previous one is accepted too until `previousPasswordUntil`: checked
 * second (a wrong password then costs two verifications, for that partner only) and remembered under its own
 * hash and end, so that an operator ending the overlap, or its end passing, forgets it at once.
 */
export function createPasswordVerifier(options: PasswordVerifierOptions): PasswordVerifier {
  const key = randomBytes(32);
  const remembered = new TtlCache<string, true>(options.rememberMs, 100_000, options.now);
  let running = 0;
  const waiting: Array<() => void> = [];

  async function bounded<T>(work: () => Promise<T>): Promise<T> {
    if (running >= options.concurrency) {
      if (waiting.length >= options.maxQueue) throw errors.busy();
      await new Promise<void>((resolve) => waiting.push(resolve));
    } else {
      running++;
    }
    try {
      return await work();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else running--;
    }
  }

  const digest = (partner: Partner, hash: string, password: string, until = '') =>
    createHmac('sha256', key).update(partner.id).update('\0').update(hash).update('\0').update(until).update('\0').update(password).digest('base64url');
  /** The previous password's hash and end while its overlap runs; undefined otherwise. */
  const previousOf = (partner: Partner | undefined) =>
    partner?.previousPasswordHash && partner.previousPasswordUntil && partner.previousPasswordUntil.getTime() > options.now()
      ? { hash: partner.previousPasswordHash, until: partner.previousPasswordUntil.toISOString() }
      : undefined;
  /** A remembered success for the current password, or for the previous one while its overlap runs. */
  const recall = (partner: Partner, password: string) => {
    if (options.rememberMs <= 0) return false;
    if (remembered.get(digest(partner, partner.passwordHash, password)) === true) return true;
    const previous = previousOf(partner);
    return previous !== undefined && remembered.get(digest(partner, previous.hash, password, previous.until)) === true;
  };

  return {
    stats: () => ({ running, waiting: waiting.length, remembered: { hits: remembered.hits, misses: remembered.misses } }),
    recall,
    async verify(partner, password, { remember = false } = {}) {
      const remembering = remember && partner !== undefined && options.rememberMs > 0;
      if (remembering && recall(partner, password)) return true;
      if (await bounded(() => verifyPassword(partner?.passwordHash, password))) {
        if (remembering) remembered.set(digest(partner, partner.passwordHash, password), true);
        return true;
      }
      const previous = previousOf(partner);
      if (!partner || !previous || !(await bounded(() => verifyPassword(previous.hash, password)))) return false;
      if (remembering) remembered.set(digest(partner, previous.hash, password, previous.until), true);
      return true;
    },
  };
}
