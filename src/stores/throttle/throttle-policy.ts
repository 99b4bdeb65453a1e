import type { Config } from '../../config.js';

/** How failed authentications turn into lockouts (after Keycloak's brute-force detection). */
export interface ThrottlePolicy {
  /** Failures within the window that trigger a lockout. */
  maxFailures: number;
  windowMs: number;
  /** The first lockout; each further one doubles, up to `lockoutMaxMs`. */
  lockoutMs: number;
  lockoutMaxMs: number;
  /** After this long without failures a key's lockout history is forgotten. */
  memoryMs: number;
}

/** The counters of one key (an address, or a login). */
export interface ThrottleState {
  failures: number;
  windowStartedAt: number;
  lockouts: number;
  lockedUntil: number | null;
  lastFailureAt: number;
}

/**
 * The state after one more failure at `now`. Failures outside the window start a new count; reaching
 * `maxFailures` locks the key for `lockoutMs * 2^(lockouts so far)` (capped) and starts a new count; a key
 * quiet for `memoryMs` starts again from the first lockout.
 */
export function nextThrottleState(previous: ThrottleState | undefined, now: number, policy: ThrottlePolicy): ThrottleState {
  const fresh = !previous || now - previous.lastFailureAt > policy.memoryMs;
  const lockouts = fresh ? 0 : previous.lockouts;
  const inWindow = !fresh && now - previous.windowStartedAt <= policy.windowMs;
  const failures = inWindow ? previous.failures + 1 : 1;
  const windowStartedAt = inWindow ? previous.windowStartedAt : now;
  const stillLocked = !fresh && previous.lockedUntil !== null && previous.lockedUntil > now ? previous.lockedUntil : null;
  if (failures >= policy.maxFailures) {
    const lockout = Math.min(policy.lockoutMs * 2 ** lockouts, policy.lockoutMaxMs);
    return { failures: 0, windowStartedAt: now, lockouts: lockouts + 1, lockedUntil: Math.max(now + lockout, stillLocked ?? 0), lastFailureAt: now };
  }
  return { failures, windowStartedAt, lockouts, lockedUntil: stillLocked, lastFailureAt: now };
}

/** Milliseconds `state` stays locked after `now` (0 when not locked). */
export function remainingLock(state: ThrottleState | undefined, now: number): number {
  return state?.lockedUntil && state.lockedUntil > now ? state.lockedUntil - now : 0;
}

/**
 * Failures that still count at `now`: those of the current window, unless the key has been quiet for
 * `memoryMs`. (The Redis store's reservation script reads a state the same way.)
 */
export function liveFailures(state: ThrottleState | undefined, now: number, policy: ThrottlePolicy): number {
  if (!state || now - state.lastFailureAt > policy.memoryMs || now - state.windowStartedAt > policy.windowMs) return 0;
  return state.failures;
}

/**
 * The policy the configuration sets (THROTTLE_*), Keycloak's defaults in spirit: a lockout history is forgotten
 * after 12 quiet hours, and the longest lockout is never shorter than the first.
 *
 * @example
 * ```ts
 * throttlePolicyOf(loadConfig({})); // { maxFailures: 10, windowMs: 900000, lockoutMs: 60000, lockoutMaxMs: 900000, memoryMs: 43200000 }
 * ```
 */
export function throttlePolicyOf(config: Pick<Config, 'THROTTLE_MAX_FAILURES' | 'THROTTLE_WINDOW' | 'THROTTLE_LOCKOUT' | 'THROTTLE_LOCKOUT_MAX'>): ThrottlePolicy {
  return {
    maxFailures: config.THROTTLE_MAX_FAILURES,
    windowMs: config.THROTTLE_WINDOW * 1000,
    lockoutMs: config.THROTTLE_LOCKOUT * 1000,
    lockoutMaxMs: Math.max(config.THROTTLE_LOCKOUT_MAX, config.THROTTLE_LOCKOUT) * 1000,
    memoryMs: 12 * 3600 * 1000,
  };
}
