import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { ReplayStateLost } from '../replay/replay-state-lost.js';
import { nextThrottleState, remainingLock, type ThrottlePolicy, type ThrottleState } from './throttle-policy.js';
import { RESERVATION_HOLD_MS, type Reservation, type ThrottleStore } from './throttle-store.js';

/**
 * Compare-and-set: writes ARGV[2] only if the key still holds ARGV[1] ('' for absent). The throttle
 * arithmetic stays in TypeScript (`nextThrottleState`, shared with the database store); Redis only
 * guarantees that two instances counting the same key at once do not lose a failure.
 */
const COMPARE_AND_SET = `
local current = redis.call('GET', KEYS[1])
if (current or '') == ARGV[1] then
  redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
  return 1
end
return 0`;

/**
 * Takes a place for a password check on every key, or none. KEYS: the replay state's sentinel, then state,
 * in-flight set, state, in-flight set... ARGV: now, windowMs, memoryMs, maxFailures, holdMs, id. A state is
 * read as `liveFailures` and `remainingLock` read it (ARGV[7] = '1': the sentinel is checked); places in flight are members of a sorted set scored by
 * when they lapse. Returns {-1, 0, 0} when the sentinel is gone (Redis lost its keys: its lockouts may be
 * missing), {1, 0, 0} for a place, {0, ms, 0} while locked, {0, 0, busy} while every place is taken (busy = 1
 * when checks in flight alone take them, nobody having failed).
 */
const RESERVE = `
if ARGV[7] == '1' and redis.call('EXISTS', KEYS[1]) == 0 then return {-1, 0, 0} end
local now, window, memory, max, hold = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
local locked, full, busy = 0, false, 1
for i = 2, #KEYS, 2 do
  local raw = redis.call('GET', KEYS[i])
  local failures = 0
  if raw then
    local state = cjson.decode(raw)
    if type(state.lockedUntil) == 'number' and state.lockedUntil > now then locked = math.max(locked, state.lockedUntil - now) end
    if now - state.lastFailureAt <= memory and now - state.windowStartedAt <= window then failures = state.failures end
  end
  redis.call('ZREMRANGEBYSCORE', KEYS[i + 1], '-inf', now)
  if failures + redis.call('ZCARD', KEYS[i + 1]) >= max then
    full = true
    if failures > 0 then busy = 0 end
  end
end
if locked > 0 then return {0, math.ceil(locked), 0} end
if full then return {0, 0, busy} end
for i = 2, #KEYS, 2 do
  redis.call('ZADD', KEYS[i + 1], now + hold, ARGV[6])
  redis.call('PEXPIRE', KEYS[i + 1], hold)
end
return {1, 0, 0}`;

/**
 * A failed password check settled: writes every key's new state (ARGV[2 + 2i + 2]) only if each still holds what
 * was read (ARGV[2 + 2i + 1], '' for absent), and removes the check's place (ARGV[1]) from each in-flight set, all
 * at once. KEYS: state, in-flight set, state, in-flight set... ARGV[2]: the states' time to live. Returns 1 when
 * written, 0 when a state changed meanwhile (read again and retry).
 */
const SETTLE_FAILURE = `
for i = 1, #KEYS, 2 do
  if (redis.call('GET', KEYS[i]) or '') ~= ARGV[2 + i] then return 0 end
end
for i = 1, #KEYS, 2 do
  redis.call('SET', KEYS[i], ARGV[3 + i], 'PX', ARGV[2])
  redis.call('ZREM', KEYS[i + 1], ARGV[1])
end
return 1`;

/** Compare-and-set retries per key: a key has at most `maxFailures` checks in flight, so few contend. */
const MAX_ATTEMPTS = 64;

export interface RedisThrottleOptions {
  /**
   * The replay state's sentinel in this Redis (see replay-state.ts): while it is missing, Redis may have lost
   * its lockouts, so `lockedFor` and `reserve` throw ReplayStateLost(`scope`) instead of answering (the caller
   * falls back to the database, which holds every lockout, see `onLock`, until they are restored).
   */
  sentinel?: { key: string; scope: string };
  /** Told of every lockout set here, before the call returns: the database keeps it durably (a Redis restart loses it). */
  onLock?(key: string, state: ThrottleState): Promise<void>;
}

/** The Redis store, which can also take back lockouts the database kept (after Redis lost its keys). */
export interface RedisThrottleStore extends ThrottleStore {
  /** Puts each lockout back unless Redis already holds one as long. */
  restoreLocks(locks: ReadonlyArray<{ key: string; state: ThrottleState }>): Promise<void>;
}

export function createRedisThrottleStore(redis: Redis, policy: ThrottlePolicy, prefix = 'partner-gateway:throttle:', options: RedisThrottleOptions = {}): RedisThrottleStore {
  const parse = (raw: string | null): ThrottleState | undefined => (raw ? (JSON.parse(raw) as ThrottleState) : undefined);
  const ttl = String(policy.memoryMs + policy.lockoutMaxMs);
  const inFlightKey = (key: string) => `${prefix}${key}#in-flight`;

  async function update(key: string, change: (state: ThrottleState | undefined) => ThrottleState | undefined): Promise<ThrottleState | undefined> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const raw = await redis.get(prefix + key);
      const next = change(parse(raw));
      if (next === undefined) return undefined;
      const written = await redis.eval(COMPARE_AND_SET, 1, prefix + key, raw ?? '', JSON.stringify(next), ttl);
      if (written === 1) return next;
    }
    throw new Error(`throttle key ${key} is too contended`);
  }

  const { sentinel } = options;

  const store: RedisThrottleStore = {
    async lockedFor(keys, now) {
      if (keys.length === 0) return 0;
      const values = await redis.mget(...keys.map((key) => prefix + key), ...(sentinel ? [sentinel.key] : []));
      if (sentinel && values.pop() === null) throw new ReplayStateLost(sentinel.scope);
      return Math.max(0, ...values.map((raw) => remainingLock(parse(raw), now)));
    },
    async recordFailure(keys, now) {
      let longest = 0;
      for (const key of keys) {
        const seen: { before?: ThrottleState } = {};
        const next = await update(key, (state) => {
          seen.before = state;
          return nextThrottleState(state, now, policy);
        });
        if (next?.lockedUntil != null && next.lockedUntil !== seen.before?.lockedUntil) await options.onLock?.(key, next);
        longest = Math.max(longest, remainingLock(next, now));
      }
      return longest;
    },
    async reset(keys) {
      for (const key of keys) await update(key, (state) => (state && state.failures > 0 ? { ...state, failures: 0 } : undefined));
    },
    async reserve(keys, now): Promise<Reservation> {
      const id = randomUUID();
      const redisKeys = [sentinel?.key ?? `${prefix}#sentinel`, ...[...new Set(keys)].flatMap((key) => [prefix + key, inFlightKey(key)])];
      const [granted, lockedMs, busy] = (await redis.eval(
        RESERVE,
        redisKeys.length,
        ...redisKeys,
        now,
        policy.windowMs,
        policy.memoryMs,
        policy.maxFailures,
        RESERVATION_HOLD_MS,
        id,
        sentinel ? '1' : '0',
      )) as [number, number, number];
      if (granted === -1) throw new ReplayStateLost(sentinel!.scope);
      if (granted === 1) return { granted: true, id };
      if (lockedMs > 0) return { granted: false, reason: 'locked', retryAfterMs: lockedMs };
      return { granted: false, reason: busy === 1 ? 'busy' : 'full', retryAfterMs: 1_000 };
    },
    async release(keys, id, now, failed) {
      const unique = [...new Set(keys)];
      if (!failed) {
        const pipeline = redis.multi();
        for (const key of unique) pipeline.zrem(inFlightKey(key), id);
        await pipeline.exec();
        return 0;
      }
      // The failure counted and the place given back in one script, on every key at once: a reservation never
      // sees the count without the place given back (which refused it as full) nor the place back without the
      // count (which would let one more guess in).
      for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
        const raws = await redis.mget(...unique.map((key) => prefix + key));
        const nexts = raws.map((raw) => nextThrottleState(parse(raw), now, policy));
        const written = await redis.eval(
          SETTLE_FAILURE,
          unique.length * 2,
          ...unique.flatMap((key) => [prefix + key, inFlightKey(key)]),
          id,
          ttl,
          ...raws.flatMap((raw, index) => [raw ?? '', JSON.stringify(nexts[index])]),
        );
        if (written !== 1) continue;
        let longest = 0;
        for (const [index, key] of unique.entries()) {
          const next = nexts[index]!;
          if (next.lockedUntil != null && next.lockedUntil !== parse(raws[index] ?? null)?.lockedUntil) await options.onLock?.(key, next);
          longest = Math.max(longest, remainingLock(next, now));
        }
        return longest;
      }
      throw new Error(`throttle keys ${unique.join(', ')} are too contended`);
    },
    async restoreLocks(locks) {
      for (const { key, state: kept } of locks) {
        await update(key, (state) => {
          if (state?.lockedUntil != null && state.lockedUntil >= kept.lockedUntil!) return undefined;
          return state ? { ...state, lockouts: Math.max(state.lockouts, kept.lockouts), lockedUntil: kept.lockedUntil } : kept;
        });
      }
    },
  };
  return store;
}
