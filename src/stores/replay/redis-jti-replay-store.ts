import type { Redis } from 'ioredis';
import type { JtiReplayRepository } from './jti-replay-repository.js';

/** The JWE replay cache in Redis: SET NX with an expiry at the end of the jti's acceptance window. */
export function createRedisJtiReplayStore(redis: Redis, now: () => number, prefix = 'partner-gateway:jti:'): JtiReplayRepository {
  return {
    async claim(jti, rememberUntil) {
      const ttl = Math.max(1, rememberUntil.getTime() - now());
      return (await redis.set(prefix + jti, '1', 'PX', ttl, 'NX')) === 'OK';
    },
    // Redis expires the keys by itself.
    purgeExpired: async () => 0,
  };
}
