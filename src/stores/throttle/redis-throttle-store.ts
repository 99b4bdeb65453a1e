import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
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
 * Takes a place for a password check on every key, or none. KEYS: state, in-flight set, state, in-flight set...
 * ARGV: now, windowMs, memoryMs, maxFailures, holdMs, id. A state is read as `liveFailures` and
 * `remainingLock` read it; places in flight are members of a sorted set scored by when they lapse. Returns
 * {1, 0, 0} for a place, {0, ms, 0} while locked, {0, 0, busy} while every place is taken (busy = 1 when
 * checks in flight alone take them, nobody having failed).
 */
const RESERVE = `
local now, window, memory, max, hold = tonumber(ARGV[1]), tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4]), tonumber(ARGV[5])
local locked, full, busy = 0, false, 1
for i = 1, #KEYS, 2 do
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
for i = 1, #KEYS, 2 do
  redis.call('ZADD', KEYS[i + 1], now + hold, ARGV[6])
  redis.call('PEXPIRE', KEYS[i + 1], hold)
end
return {1, 0, 0}`;

/** Compare-and-set retries per key: a key has at most `maxFailures` checks in flight, so few contend. */
const MAX_ATTEMPTS = 64;

export function createRedisThrottleStore(redis: Redis, policy: ThrottlePolicy, prefix = 'partner-gateway:throttle:'): ThrottleStore {
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

  const store: ThrottleStore = {
    async lockedFor(keys, now) {
      if (keys.length === 0) return 0;
      const values = await redis.mget(...keys.map((key) => prefix + key));
      return Math.max(0, ...values.map((raw) => remainingLock(parse(raw), now)));
    },
    async recordFailure(keys, now) {
      let longest = 0;
      for (const key of keys) longest = Math.max(longest, remainingLock(await update(key, (state) => nextThrottleState(state, now, policy)), now));
      return longest;
    },
    async reset(keys) {
      for (const key of keys) await update(key, (state) => (state && state.failures > 0 ? { ...state, failures: 0 } : undefined));
    },
    async reserve(keys, now): Promise<Reservation> {
      const id = randomUUID();
      const redisKeys = [...new Set(keys)].flatMap((key) => [prefix + key, inFlightKey(key)]);
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
      )) as [number, number, number];
      if (granted === 1) return { granted: true, id };
      if (lockedMs > 0) return { granted: false, reason: 'locked', retryAfterMs: lockedMs };
      return { granted: false, reason: busy === 1 ? 'busy' : 'full', retryAfterMs: 1_000 };
    },
    async release(keys, id, now, failed) {
      // The failure is counted before the place is given back, so that the count never dips in between.
      const locked = failed ? await store.recordFailure(keys, now) : 0;
      const pipeline = redis.multi();
      for (const key of new Set(keys)) pipeline.zrem(inFlightKey(key), id);
      await pipeline.exec();
      return locked;
    },
  };
  return store;
}
