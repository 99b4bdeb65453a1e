import type { Config } from '../config.js';
import { isSoleWriter, type DatabaseHandle } from '../db/database.js';
import type { ChangeFeed } from '../db/change-feed.js';
import type { GatewayEvents } from '../gateway-events.js';
import { createJtiReplayRepository, type JtiReplayRepository } from './replay/jti-replay-repository.js';
import { createReplayStateRepository, readTableSentinel, writeTableSentinel } from './replay/replay-state-repository.js';
import { createReplayState, DATABASE_SCOPE, type ReplayState, type ReplayStateScope } from './replay/replay-state.js';
import { createSingleUseJtis, type SingleUseJtis } from './replay/single-use-jtis.js';
import { createWriteBehindReplayCache, type WriteBehindReplayCache } from './replay/write-behind-replay-cache.js';
import { createRedisStores } from './redis-stores.js';
import type { RedisCommandObserver } from './redis-command-timing.js';
import type { ThrottlePolicy } from './throttle/throttle-policy.js';
import { createDatabaseThrottleStore, type ThrottleStore } from './throttle/throttle-store.js';

/** The state every instance must share to refuse a replayed JWE and to count failed logins. */
export interface SharedStores {
  throttle: ThrottleStore;
  /** The replay store itself (purged by the gateway): claims go through `jtis`. */
  replay: Pick<JtiReplayRepository, 'purgeExpired'>;
  /** Encrypted passwords', client assertions' and DPoP proofs' jtis, spent once, refused when issued before a loss of replay state. */
  jtis: SingleUseJtis;
  /** When replay state was last found lost (ms; 0 when never): single-use credentials issued before it are refused. */
  replayNotBefore(): number;
  /** JWEs found accepted twice since start (always 0 without Redis). */
  replayConflicts(): number;
  /** Replay journal entries dropped since start because the database could not hold them (always 0 without Redis). */
  replayJournalDropped(): number;
  /** Resolves when Redis answers PING, rejects when it does not; undefined without REDIS_URL. */
  pingRedis: (() => Promise<void>) | undefined;
  /** Writes down what is pending (the replay journal, for up to `timeoutMs`) and disconnects from Redis. */
  close(timeoutMs: number): Promise<void>;
}

export interface SharedStoreOptions {
  now: () => number;
  /**
   * Told of each Redis failure (the call went to the database) and failed journal write, of JWEs found accepted
   * twice, of journal entries the database could not hold, of the embedded replay cache's failed writes, and of
   * replay state found lost.
   */
  events: GatewayEvents;
  /** The longest a single-use credential stays acceptable (the JWE window, a client assertion's life), in ms. */
  acceptanceWindowMs: number;
  /** Told of every Redis command's time (the latency histogram); nothing by default. */
  onRedisCommand?: RedisCommandObserver | undefined;
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
 * replayed once more after it), or with REDIS_URL in Redis, each call falling back to the database when Redis
 * fails (see createRedisStores).
 *
 * Losses of replay state (a crash, an emptied table, a Redis restart) are caught by the replay state's
 * sentinels (see createReplayState): single-use credentials issued before the loss are refused from then on.
 * Lockouts are durable: auth_throttle is a LOGGED table, and lockouts decided in Redis are written there too.
 */
export function createSharedStores(config: Config, handle: DatabaseHandle, feed: ChangeFeed, policy: ThrottlePolicy, options: SharedStoreOptions): SharedStores {
  const databaseThrottle = createDatabaseThrottleStore(handle.db, policy);
  const scopes: ReplayStateScope[] = [{ name: DATABASE_SCOPE, readSentinel: readTableSentinel, writeSentinel: writeTableSentinel }];
  const soleWriter = isSoleWriter(handle.db);
  const state: ReplayState = createReplayState({
    repository: createReplayStateRepository(handle.db),
    scopes,
    now: options.now,
    ...(soleWriter ? { soleWriter: handle.db } : {}),
    onLost: (scope, lostAt) => {
      options.events({ type: 'replay_state_lost', scope, lostAt, refusedUntil: lostAt + options.acceptanceWindowMs });
      if (scope !== DATABASE_SCOPE) redis?.lost();
    },
    onCheckFailed: (_scope, error) => options.events({ type: 'redis_failed', error }),
  });
  const databaseReplay = createJtiReplayRepository(handle.db, { epoch: () => state.epoch(DATABASE_SCOPE) });
  const redis = config.REDIS_URL ? createRedisStores(config, handle, feed, policy, { ...options, state, databaseReplay, databaseThrottle, onCommand: options.onRedisCommand }) : undefined;
  if (redis) scopes.push(redis.scope);
  const sole = !redis && soleWriter ? soleWriterReplay(handle, databaseReplay, options) : undefined;
  const replay: JtiReplayRepository = redis?.replay ?? sole?.replay ?? databaseReplay;
  // Checked at once, so that a loss is logged (and Redis's lockouts restored) at start; a claim waits for it.
  state.ready().catch((error: unknown) => options.events({ type: 'replay_state_check_failed', error }));

  return {
    throttle: redis?.throttle ?? databaseThrottle,
    replay,
    jtis: createSingleUseJtis(replay, state),
    replayNotBefore: () => state.notBefore(),
    replayConflicts: () => redis?.conflicts() ?? 0,
    replayJournalDropped: () => redis?.dropped() ?? 0,
    pingRedis: redis ? () => redis.ping() : undefined,
    async close(timeoutMs) {
      let clean = false;
      try {
        // Whatever memory or the journal holds is written before the embedded database is marked closed cleanly.
        if (redis) await redis.close(timeoutMs);
        else await sole?.close();
        clean = true;
      } finally {
        await state.close(clean);
      }
    },
  };
}
