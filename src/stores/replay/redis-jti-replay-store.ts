import type { Redis } from 'ioredis';
import type { JtiReplayRepository } from './jti-replay-repository.js';
import { ReplayStateLost } from './replay-state-lost.js';

/**
 * The Redis key of the replay state's sentinel (see replay-state.ts): `<epoch>:<lostAt ms>`, the epoch of the
 * jtis beside it and the loss that began it (0 for none). It has no expiry: only losing Redis's keys loses it.
 */
export const redisSentinelKey = (prefix: string) => `${prefix}replay-state`;

/**
 * SET NX, only while the sentinel holds the epoch this instance knows: -1 (nothing set) when it does not (Redis
 * restarted empty, was flushed or evicted it, or another instance found that and set a new one), 1 when the jti
 * is new, 0 when it was there. One round trip, as the plain SET NX was.
 */
const CLAIM = `
local sentinel = redis.call('GET', KEYS[2])
if not sentinel or string.match(sentinel, '^%d+') ~= ARGV[2] then return -1 end
if redis.call('SET', KEYS[1], '1', 'PX', ARGV[1], 'NX') then return 1 end
return 0`;

export interface RedisReplaySentinel {
  /** Its key (redisSentinelKey). */
  key: string;
  /** The replay_state scope of this Redis (`redis:<prefix>`), named by ReplayStateLost. */
  scope: string;
  /** The epoch this instance knows (undefined before it has checked Redis). */
  epoch(): number | undefined;
}

/**
 * The JWE replay cache in Redis: SET NX with an expiry at the end of the jti's acceptance window. With
 * `sentinel`, a claim is answered only while Redis holds the replay state this instance knows, in the same
 * script; otherwise it throws ReplayStateLost and claims nothing.
 */
export function createRedisJtiReplayStore(redis: Redis, now: () => number, prefix = 'partner-gateway:jti:', sentinel?: RedisReplaySentinel): JtiReplayRepository {
  return {
    async claim(jti, rememberUntil) {
      const ttl = Math.max(1, rememberUntil.getTime() - now());
      if (!sentinel) return (await redis.set(prefix + jti, '1', 'PX', ttl, 'NX')) === 'OK';
      // An epoch not known yet (Redis was away when this instance checked it) matches no sentinel: the claim
      // fails over to the database while Redis stays away, and is checked once it answers.
      const answer = (await redis.eval(CLAIM, 2, prefix + jti, sentinel.key, ttl, String(sentinel.epoch() ?? ''))) as number;
      if (answer === -1) throw new ReplayStateLost(sentinel.scope);
      return answer === 1;
    },
    // Redis expires the keys by itself.
    purgeExpired: async () => 0,
  };
}
