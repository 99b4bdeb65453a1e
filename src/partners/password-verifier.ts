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

  const digest = (partner: Partner, password: string) =>
    createHmac('sha256', key).update(partner.id).update('\0').update(partner.passwordHash).update('\0').update(password).digest('base64url');

  return {
    stats: () => ({ running, waiting: waiting.length, remembered: { hits: remembered.hits, misses: remembered.misses } }),
    recall: (partner, password) => options.rememberMs > 0 && remembered.get(digest(partner, password)) === true,
    async verify(partner, password, { remember = false } = {}) {
      const memo = remember && partner && options.rememberMs > 0 ? digest(partner, password) : undefined;
      if (memo !== undefined && remembered.get(memo)) return true;
      const valid = await bounded(() => verifyPassword(partner?.passwordHash, password));
      if (valid && memo !== undefined) remembered.set(memo, true);
      return valid;
    },
  };
}
