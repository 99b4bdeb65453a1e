import { Redis } from 'ioredis';
import { withTimeout } from '../async/with-timeout.js';

/**
 * Whether the Redis at `url` answers a PING within `timeoutMs`, asked once on a connection of its own that is
 * closed again: at start, so that the start log says whether the gateway runs on Redis or degraded on the
 * database fallback. Resolves with the cause when it does not (the URL's credentials never appear in it).
 *
 * @example
 * ```ts
 * await redisReachable('redis://127.0.0.1:1'); // { up: false, cause: 'connect ECONNREFUSED 127.0.0.1:1' }
 * ```
 */
export async function redisReachable(url: string, timeoutMs = 2_000): Promise<{ up: true } | { up: false; cause: string }> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0, enableOfflineQueue: false, connectTimeout: timeoutMs, retryStrategy: () => null });
  let lastError: unknown;
  redis.on('error', (error: unknown) => (lastError = error));
  try {
    await withTimeout(
      (async () => {
        await redis.connect();
        await redis.ping();
      })(),
      timeoutMs,
      () => 'no answer',
    );
    return { up: true };
  } catch (error) {
    const cause = (lastError ?? error) as { message?: string };
    return { up: false, cause: (cause.message ?? String(cause)).split('\n')[0]!.slice(0, 200) };
  } finally {
    redis.disconnect();
  }
}
