import { Redis } from 'ioredis';
import { withTimeout } from '../async/with-timeout.js';
import type { Config } from '../config.js';
import { isSoleWriter, type DatabaseHandle } from '../db/database.js';
import type { ChangeFeed } from '../db/change-feed.js';
import type { GatewayEvents } from '../gateway-events.js';
import { createJournaledReplayStore, type JournaledReplayStore } from './replay/journaled-replay-store.js';
import { createJtiReplayRepository, type JtiReplayRepository } from './replay/jti-replay-repository.js';
import { createRedisJtiReplayStore } from './replay/redis-jti-replay-store.js';
import { createWriteBehindReplayCache, type WriteBehindReplayCache } from './replay/write-behind-replay-cache.js';
import type { ThrottlePolicy } from './throttle/throttle-policy.js';
import { createRedisThrottleStore } from './throttle/redis-throttle-store.js';
import { createDatabaseThrottleStore, type ThrottleStore } from './throttle/throttle-store.js';
import { withFallback } from './with-fallback.js';

/** The state every instance must share to refuse a replayed JWE and to count failed logins. */
export interface SharedStores {
  throttle: ThrottleStore;
  replay: JtiReplayRepository;
  /** JWEs found accepted twice since start (always 0 without Redis). */
  replayConflicts(): number;
  /** Replay journal entries dropped since start because the database could not hold them (always 0 without Redis). */
  replayJournalDropped(): number;
  /** Writes down what is pending (the replay journal, for up to `timeoutMs`) and disconnects from Redis. */
  close(timeoutMs: number): Promise<void>;
}

export interface SharedStoreOptions {
  now: () => number;
  /**
   * Told of each Redis failure (the call went to the database) and failed journal write, of JWEs found accepted
   * twice, of journal entries the database could not hold, and of the embedded replay cache's failed writes.
   */
  events: GatewayEvents;
}

/** The write-behind replay caches of sole-writer databases, one per database and shared by its gateways, with their users. */
const writeBehind = new WeakMap<DatabaseHandle['db'], { cache: WriteBehindReplayCache; users: number }>();

/**
 * The replay cache of a database this process alone writes (the embedded PGlite): in memory, the table written
 * behind (see createWriteBehindReplayCache). Every gateway of this process over that database shares one, so
 * that a jti accepted by one is refused by the others at once; the last to close writes what is pending.
 */
function soleWriterReplay(handle: DatabaseHandle, table: ReturnType<typeof createJtiReplayRepository>, options: SharedStoreOptions): { replay: JtiReplayRepository; close(): Promise<void> } {
  let entry = writeBehind.get(handle.db);
  if (!entry) {
    entry = { cache: createWriteBehindReplayCache({ table, now: options.now, onWriteError: (error) => options.events({ type: 'replay_write_failed', error }) }), users: 0 };
    writeBehind.set(handle.db, entry);
  }
  entry.users += 1;
  const shared = entry;
  let closed = false;
  return {
    replay: shared.cache,
    async close() {
      if (closed) return;
      closed = true;
      shared.users -= 1;
      if (shared.users > 0) return;
      writeBehind.delete(handle.db);
      await shared.cache.close();
    },
  };
}

/**
 * The throttle counters and the JWE replay cache: in the database (PostgreSQL, shared by every instance, or
 * the embedded PGlite: there the replay cache answers from memory and writes the table behind it, reloading
 * it at start, so that a restart does not forget which JWEs were accepted and a captured one cannot be
 * replayed once more after it), or with REDIS_URL in Redis, each
 * call falling back to the database when Redis fails. The replay cache keeps a journal in the database and
 * announces its outages over the change feed, so that failing over does not reopen accepted JWEs (see
 * createJournaledReplayStore). Throttle counters are not journaled: across a Redis outage an address may get
 * up to its failure allowance again, which costs an attacker a few more guesses, never a credential.
 */
export function createSharedStores(config: Config, handle: DatabaseHandle, feed: ChangeFeed, policy: ThrottlePolicy, options: SharedStoreOptions): SharedStores {
  const { now } = options;
  const databaseThrottle = createDatabaseThrottleStore(handle.db, policy);
  const databaseReplay = createJtiReplayRepository(handle.db);
  if (!config.REDIS_URL && isSoleWriter(handle.db)) {
    const sole = soleWriterReplay(handle, databaseReplay, options);
    return { throttle: databaseThrottle, replay: sole.replay, replayConflicts: () => 0, replayJournalDropped: () => 0, close: () => sole.close() };
  }
  if (!config.REDIS_URL) return { throttle: databaseThrottle, replay: databaseReplay, replayConflicts: () => 0, replayJournalDropped: () => 0, close: async () => {} };

  // Fail fast rather than queue: a command Redis cannot take now goes to the database instead.
  const redis = new Redis(config.REDIS_URL, { maxRetriesPerRequest: 0, enableOfflineQueue: false, connectTimeout: 1_000, commandTimeout: 1_000 });
  const onRedisError = (error: unknown) => options.events({ type: 'redis_failed', error });
  redis.on('error', onRedisError);
  const replay: JournaledReplayStore = createJournaledReplayStore({
    redis: createRedisJtiReplayStore(redis, now, `${config.REDIS_KEY_PREFIX}jti:`),
    database: databaseReplay,
    now,
    windowMs: (config.JWE_MAX_AGE + config.JWE_MAX_FUTURE + 1) * 1000,
    onFallback: onRedisError,
    onJournalError: onRedisError,
    announce: (forMs) => feed.publish({ kind: 'replay-degraded', forMs }),
    onConflict: (jtis) => options.events({ type: 'replay_conflict', jtis }),
    onDrop: (count) => options.events({ type: 'replay_journal_dropped', count }),
  });
  feed.subscribe('replay-degraded', (change) => replay.doubleCheckFor(change.forMs));
  let connectedBefore = false;
  redis.on('ready', () => {
    if (connectedBefore) replay.redisReconnected();
    connectedBefore = true;
  });
  return {
    throttle: withFallback(createRedisThrottleStore(redis, policy, `${config.REDIS_KEY_PREFIX}throttle:`), databaseThrottle, onRedisError),
    replay,
    replayConflicts: () => replay.conflicts(),
    replayJournalDropped: () => replay.dropped(),
    async close(timeoutMs) {
      replay.stop();
      try {
        await withTimeout(replay.flushJournal(), timeoutMs, () => `replay journal not written within ${timeoutMs} ms: ${replay.journalPending()} jtis left`);
      } finally {
        redis.disconnect();
      }
    },
  };
}
