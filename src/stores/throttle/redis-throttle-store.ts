import type { Redis } from 'ioredis';
import { nextThrottleState, remainingLock, type ThrottlePolicy, type ThrottleState } from './throttle-policy.js';
import type { ThrottleStore } from './throttle-store.js';

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

const MAX_ATTEMPTS = 8;

export function createRedisThrottleStore(redis: Redis, policy: ThrottlePolicy, prefix = 'partner-gateway:throttle:'): ThrottleStore {
  const parse = (raw: string | null): ThrottleState | undefined => (raw ? (JSON.parse(raw) as ThrottleState) : undefined);
  const ttl = String(policy.memoryMs + policy.lockoutMaxMs);

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

  return {
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
  };
}
