import type { JtiJournal, JtiReplayRepository } from './jti-replay-repository.js';

export interface JournaledReplayOptions {
  /** The replay cache in Redis (SET NX): the one that answers while Redis is reachable. */
  redis: JtiReplayRepository;
  /** The replay table in the database: every jti Redis accepted is written down here too, off the request path. */
  database: JtiReplayRepository & JtiJournal;
  now: () => number;
  /** How long a jti claimed during a Redis outage may still be presented (JWE_MAX_AGE + JWE_MAX_FUTURE). */
  windowMs: number;
  /** Told of each Redis failure (the call went to the database). */
  onFallback: (error: unknown) => void;
  /** Tells the other instances that claims went to the database until `until` (see `doubleCheckUntil`). */
  announce?: (until: number) => void;
  /** Told when writing down the journal fails (it is retried) or finds a jti the database already had. */
  onJournalError?: (error: unknown) => void;
}

export interface JournaledReplayStore extends JtiReplayRepository {
  /** Until `until`, claim in Redis and in the database: an instance announced that it claimed in the database. */
  doubleCheckUntil(until: number): void;
  /**
   * Redis came back after losing the connection: it may have restarted empty or failed over to a replica that
   * missed the last writes, even if no call noticed. Claims go to both stores for the window, as after a failure.
   */
  redisReconnected(): void;
  /** Writes down what the journal holds (shutdown, tests). */
  flushJournal(): Promise<void>;
  /** jtis accepted through Redis and not yet written down. */
  journalPending(): number;
}

/** How often a journal that could not be written is tried again. */
const RETRY_MS = 250;

/**
 * The JWE replay cache in Redis with the database as its fallback, kept exact across a Redis outage.
 *
 * Redis alone would forget on failover: a JWE accepted through Redis is unknown to the database, so while
 * Redis is away the fallback would accept it again, and a JWE accepted by the database during the outage is
 * unknown to Redis once it is back. A JWE stays acceptable for `windowMs`, so three things close the gap:
 * every jti Redis accepts is written down in the database right after (one insert per group of calls, off the
 * request path; while that write is pending, the fallback also checks it here); after a failure, claims go to
 * both stores for `windowMs`; and the instance announces it, so that the others claim in both stores too.
 * What remains is a replay on another instance within the milliseconds before a journal write lands or an
 * announcement arrives.
 */
export function createJournaledReplayStore(options: JournaledReplayOptions): JournaledReplayStore {
  const { redis, database, now, windowMs } = options;
  let doubleUntil = 0;
  let lastAnnounced = 0;
  /** Accepted through Redis, not yet in the database: jti → until (ms). */
  const pending = new Map<string, number>();
  let writing: Promise<void> | undefined;
  let retry: NodeJS.Timeout | undefined;

  function degrade(): void {
    doubleUntil = now() + windowMs;
    // One announcement a second is enough: each one extends the others' double-check window.
    if (now() - lastAnnounced >= 1_000) {
      lastAnnounced = now();
      options.announce?.(doubleUntil);
    }
  }

  function writeJournal(): Promise<void> {
    writing ??= (async () => {
      try {
        // Entries leave `pending` only once written, so that the fallback still sees those in flight.
        while (pending.size > 0) {
          const at = now();
          for (const [jti, until] of pending) if (until <= at) pending.delete(jti);
          const entries = [...pending].map(([jti, until]) => ({ jti, rememberUntil: new Date(until) }));
          if (entries.length === 0) return;
          const known = await database.recordAll(entries);
          for (const entry of entries) if (pending.get(entry.jti) === entry.rememberUntil.getTime()) pending.delete(entry.jti);
          if (known.length > 0) options.onJournalError?.(new Error(`${known.length} jti(s) accepted through Redis were already claimed in the database`));
        }
      } finally {
        writing = undefined;
      }
    })();
    return writing;
  }

  function scheduleJournal(): void {
    if (writing || retry) return;
    setImmediate(() => {
      writeJournal().catch((error: unknown) => {
        options.onJournalError?.(error);
        retry ??= setTimeout(() => {
          retry = undefined;
          scheduleJournal();
        }, RETRY_MS);
        retry.unref();
      });
    });
  }

  async function claimInDatabase(jti: string, rememberUntil: Date): Promise<boolean> {
    const until = pending.get(jti);
    if (until !== undefined && until > now()) return false;
    return database.claim(jti, rememberUntil);
  }

  return {
    async claim(jti, rememberUntil) {
      let fresh: boolean;
      try {
        fresh = await redis.claim(jti, rememberUntil);
      } catch (error) {
        options.onFallback(error);
        degrade();
        return claimInDatabase(jti, rememberUntil);
      }
      if (!fresh) return false;
      if (now() < doubleUntil) return claimInDatabase(jti, rememberUntil);
      pending.set(jti, rememberUntil.getTime());
      scheduleJournal();
      return true;
    },
    purgeExpired: (at) => database.purgeExpired(at),
    doubleCheckUntil(until) {
      doubleUntil = Math.max(doubleUntil, until);
    },
    redisReconnected: degrade,
    async flushJournal() {
      await writing?.catch(() => {});
      await writeJournal();
    },
    journalPending: () => pending.size,
  };
}
