import { createRequire } from 'node:module';
import type { Redis as RedisClient } from 'ioredis';
import { withTimeout } from '../async/with-timeout.js';
import type { Config } from '../config.js';
import type { DatabaseHandle } from '../db/database.js';
import type { ChangeFeed } from '../db/change-feed.js';
import type { GatewayEvents } from '../gateway-events.js';
import { createJournaledReplayStore, type JournaledReplayStore } from './replay/journaled-replay-store.js';
import type { JtiJournal, JtiReplayRepository } from './replay/jti-replay-repository.js';
import { createRedisJtiReplayStore, redisSentinelKey } from './replay/redis-jti-replay-store.js';
import { ReplayStateLost } from './replay/replay-state-lost.js';
import type { ReplayState, ReplayStateScope } from './replay/replay-state.js';
import { createDurableLockouts } from './throttle/durable-lockouts.js';
import { createRedisThrottleStore } from './throttle/redis-throttle-store.js';
import type { ThrottlePolicy } from './throttle/throttle-policy.js';
import type { ThrottleStore } from './throttle/throttle-store.js';
import { withFallback } from './with-fallback.js';
import { timeRedisCommands, type RedisCommandObserver } from './redis-command-timing.js';

export interface RedisStoreOptions {
  now: () => number;
  events: GatewayEvents;
  /** The longest a single-use credential stays acceptable, in ms: how long claims go to both stores after a failure. */
  acceptanceWindowMs: number;
  /** The replay state, whose epoch for this Redis the claims check and which records its losses. */
  state: Pick<ReplayState, 'epoch' | 'recover'>;
  databaseReplay: JtiReplayRepository & JtiJournal;
  databaseThrottle: ThrottleStore;
  /** Told of every command's time (the latency histogram); nothing by default. */
  onCommand?: RedisCommandObserver | undefined;
}

export interface RedisStores {
  /** This Redis's replay state: its sentinel, and the lockouts put back after a loss. */
  scope: ReplayStateScope;
  replay: JournaledReplayStore;
  throttle: ThrottleStore;
  /** Its loss was recorded: claims go to both stores for the window (the database's journal knows what Redis forgot). */
  lost(): void;
  conflicts(): number;
  dropped(): number;
  /** Resolves when Redis answers PING, rejects at once when it is not connected (`/readyz`, the dependency gauge). */
  ping(): Promise<void>;
  close(timeoutMs: number): Promise<void>;
}

/** How long a check of Redis's sentinel waits for the connection at start. */
const CONNECT_WAIT_MS = 2_000;

/**
 * The replay cache and the throttle counters in Redis, each call falling back to the database when Redis fails.
 * The replay cache keeps a journal in the database and announces its outages over the change feed, so that
 * failing over does not reopen accepted JWEs (see createJournaledReplayStore).
 *
 * What a Redis restart (without persistence: every key gone) does: the sentinel `<prefix>replay-state` is gone
 * too, so the next claim, lock check or reservation sees it. Claims then stop until the loss is recorded (see
 * createReplayState: credentials issued before it are refused); lock checks and reservations go to the
 * database meanwhile, which holds every lockout (each one set here is written there too), and the recording
 * puts those lockouts back into Redis before it writes the new sentinel. Failure counts below a lockout are not
 * kept: across a Redis restart or outage an address may get up to its failure allowance again, which costs an
 * attacker a few more guesses, never a credential.
 */
export function createRedisStores(config: Config, handle: DatabaseHandle, feed: ChangeFeed, policy: ThrottlePolicy, options: RedisStoreOptions): RedisStores {
  const { now, events, state } = options;
  // Fail fast rather than queue: a command Redis cannot take now goes to the database instead.
  // Required here, not imported at the top: a gateway without REDIS_URL never loads ioredis (~2 MB of heap).
  const { Redis } = createRequire(import.meta.url)('ioredis') as { Redis: typeof RedisClient };
  const redis = new Redis(config.REDIS_URL!, { maxRetriesPerRequest: 0, enableOfflineQueue: false, connectTimeout: 1_000, commandTimeout: 1_000 });
  const onRedisError = (error: unknown) => events({ type: 'redis_failed', error });
  redis.on('error', onRedisError);
  if (options.onCommand) timeRedisCommands(redis, options.onCommand);
  const name = `redis:${config.REDIS_KEY_PREFIX}`;
  const sentinel = { key: redisSentinelKey(config.REDIS_KEY_PREFIX), scope: name };
  const lockouts = createDurableLockouts(handle.db);
  const redisThrottle = createRedisThrottleStore(redis, policy, `${config.REDIS_KEY_PREFIX}throttle:`, {
    sentinel,
    onLock: (key, lock) => lockouts.record(key, lock).catch((error: unknown) => events({ type: 'lockout_write_failed', error })),
  });
  const replay = createJournaledReplayStore({
    redis: createRedisJtiReplayStore(redis, now, `${config.REDIS_KEY_PREFIX}jti:`, { ...sentinel, epoch: () => state.epoch(name) }),
    database: options.databaseReplay,
    now,
    windowMs: options.acceptanceWindowMs,
    onFallback: onRedisError,
    onJournalError: onRedisError,
    announce: (forMs) => feed.publish({ kind: 'replay-degraded', forMs }),
    onConflict: (jtis) => events({ type: 'replay_conflict', jtis }),
    onDrop: (count) => events({ type: 'replay_journal_dropped', count }),
  });
  feed.subscribe('replay-degraded', (change) => replay.doubleCheckFor(change.forMs));
  let connectedBefore = false;
  redis.on('ready', () => {
    if (connectedBefore) replay.redisReconnected();
    connectedBefore = true;
  });

  const scope: ReplayStateScope = {
    name,
    optional: true,
    async readSentinel() {
      await connected(redis, CONNECT_WAIT_MS);
      const value = await redis.get(sentinel.key);
      const match = value === null ? null : /^(\d+):(\d+)$/.exec(value);
      return match ? { epoch: Number(match[1]), lostAt: Number(match[2]) } : undefined;
    },
    async writeSentinel(_db, { epoch, lostAt }) {
      await redis.set(sentinel.key, `${epoch}:${lostAt}`);
    },
    async restore(db) {
      await redisThrottle.restoreLocks(await lockouts.live(db, now()));
    },
  };

  return {
    scope,
    replay,
    // A lock check or reservation that finds the sentinel gone is answered by the database; the loss is recorded
    // (once, whoever sees it first) and the lockouts put back.
    throttle: withFallback(redisThrottle, options.databaseThrottle, (error) => {
      if (!(error instanceof ReplayStateLost)) return onRedisError(error);
      state.recover(error.scope).catch((failure: unknown) => events({ type: 'replay_state_check_failed', error: failure }));
    }),
    lost: () => replay.redisReconnected(),
    conflicts: () => replay.conflicts(),
    dropped: () => replay.dropped(),
    async ping() {
      await redis.ping();
    },
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

/** Resolves once `redis` is connected (at once when it is), rejects after `timeoutMs`. */
function connected(redis: RedisClient, timeoutMs: number): Promise<void> {
  if (redis.status === 'ready') return Promise.resolve();
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      redis.off('ready', onReady);
      reject(new Error(`Redis not connected within ${timeoutMs} ms`));
    }, timeoutMs);
    timer.unref();
    const onReady = () => {
      clearTimeout(timer);
      resolve();
    };
    redis.once('ready', onReady);
  });
}
