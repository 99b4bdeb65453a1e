import { ReplayStateLost } from './replay-state-lost.js';
import { isValidJti } from './single-use-jtis.js';
import type { JtiJournal, JtiReplayRepository } from './jti-replay-repository.js';

export interface JournaledReplayOptions {
  /** The replay cache in Redis (SET NX): the one that answers while Redis is reachable. */
  redis: JtiReplayRepository;
  /** The replay table in the database: every jti Redis accepted is written down here too, off the request path. */
  database: JtiReplayRepository & JtiJournal;
  now: () => number;
  /** How long a jti claimed during a Redis outage may still be presented (the longest acceptance window of a single-use credential). */
  windowMs: number;
  /** Told of each Redis failure (the call went to the database). */
  onFallback: (error: unknown) => void;
  /** Tells the other instances to claim in both stores for the next `forMs` (see `doubleCheckFor`). */
  announce?: (forMs: number) => void;
  /** Told when writing down the journal fails (it is retried). */
  onJournalError?: (error: unknown) => void;
  /** Told when the journal finds jtis the database had already accepted: JWEs that were accepted twice. */
  onConflict?: (jtis: string[]) => void;
  /** Told when the journal drops entries the database cannot hold (how many): the others are written all the same. */
  onDrop?: (count: number) => void;
}

export interface JournaledReplayStore extends JtiReplayRepository {
  /** For the next `forMs`, claim in Redis and in the database: an instance announced that it claimed in the database. */
  doubleCheckFor(forMs: number): void;
  /**
   * Redis came back after losing the connection: it may have restarted empty or failed over to a replica that
   * missed the last writes, even if no call noticed. Claims go to both stores for the window, as after a failure.
   */
  redisReconnected(): void;
  /** Writes down what the journal holds (shutdown, tests). */
  flushJournal(): Promise<void>;
  /** jtis accepted through Redis and not yet written down. */
  journalPending(): number;
  /** jtis the journal found already accepted by the database since start (each one a JWE accepted twice). */
  conflicts(): number;
  /** Journal entries dropped since start because the database could not hold them. */
  dropped(): number;
  /** Stops retrying the journal (shutdown). */
  stop(): void;
}

/** How often a journal that could not be written is tried again. */
const RETRY_MS = 250;
/** Rows per journal insert: PostgreSQL takes at most 65 535 parameters per statement, two per row here. */
const JOURNAL_BATCH = 1_000;
/**
 * Beyond this many jtis waiting to be written down (the database is slow or away), a claim goes to the
 * database itself, as in the double-check window, rather than growing the journal.
 */
const JOURNAL_MAX = 20_000;
/** Clock differences between instances, added to an announced window. */
const ANNOUNCE_MARGIN_MS = 5_000;

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

  let conflicts = 0;
  let dropped = 0;

  function drop(jtis: readonly string[]): void {
    for (const jti of jtis) pending.delete(jti);
    dropped += jtis.length;
    options.onDrop?.(jtis.length);
  }

  /**
   * Writes a batch; when it fails, writes its entries one by one, so that an entry the database cannot hold
   * is dropped alone (counted and reported) instead of failing the batch for ever. When every entry fails,
   * the database is away rather than the entries wrong: the error stands and the batch is retried.
   */
  async function record(entries: Array<{ jti: string; rememberUntil: Date }>): Promise<string[]> {
    try {
      return await database.recordAll(entries);
    } catch (error) {
      if (entries.length === 1) throw error;
      const known: string[] = [];
      const failed: string[] = [];
      for (const entry of entries) {
        try {
          known.push(...(await database.recordAll([entry])));
        } catch {
          failed.push(entry.jti);
        }
      }
      if (failed.length === entries.length) throw error;
      drop(failed);
      return known;
    }
  }

  function degrade(): void {
    doubleUntil = now() + windowMs;
    // One announcement a second is enough: each one extends the others' double-check window. It carries a
    // duration, not a time, so that the instances' clocks need not agree.
    if (now() - lastAnnounced >= 1_000) {
      lastAnnounced = now();
      options.announce?.(windowMs + ANNOUNCE_MARGIN_MS);
    }
  }

  function writeJournal(): Promise<void> {
    writing ??= (async () => {
      // Never finish synchronously: the `finally` below must run after `writing` holds this promise, or it
      // would clear nothing and leave a settled promise there, and no journal would be written again.
      await null;
      try {
        // Entries leave `pending` only once written, so that the fallback still sees those in flight; the
        // oldest go first (a Map keeps insertion order).
        while (pending.size > 0) {
          const at = now();
          for (const [jti, until] of pending) if (until <= at) pending.delete(jti);
          // Claims are checked before they get here (isValidJti); this keeps the journal safe regardless.
          const unstorable = [...pending.keys()].filter((jti) => !isValidJti(jti));
          if (unstorable.length > 0) drop(unstorable);
          const entries: Array<{ jti: string; rememberUntil: Date }> = [];
          for (const [jti, until] of pending) {
            entries.push({ jti, rememberUntil: new Date(until) });
            if (entries.length === JOURNAL_BATCH) break;
          }
          if (entries.length === 0) return;
          const known = await record(entries);
          for (const entry of entries) if (pending.get(entry.jti) === entry.rememberUntil.getTime()) pending.delete(entry.jti);
          if (known.length > 0) {
            conflicts += known.length;
            options.onConflict?.(known);
          }
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
      if (now() < doubleUntil || pending.size >= JOURNAL_MAX) {
        // The database first: if it cannot answer, the call fails (500) with its JWE still unspent everywhere.
        if (!(await claimInDatabase(jti, rememberUntil))) return false;
        try {
          return await redis.claim(jti, rememberUntil);
        } catch (error) {
          // Redis answered, but not with the replay state this instance knows: not an outage; the caller recovers,
          // knowing that the database has claimed the jti as new.
          if (error instanceof ReplayStateLost) throw new ReplayStateLost(error.scope, true);
          options.onFallback(error);
          degrade();
          return true;
        }
      }
      let fresh: boolean;
      try {
        fresh = await redis.claim(jti, rememberUntil);
      } catch (error) {
        if (error instanceof ReplayStateLost) throw error;
        options.onFallback(error);
        degrade();
        return claimInDatabase(jti, rememberUntil);
      }
      if (!fresh) return false;
      pending.set(jti, rememberUntil.getTime());
      scheduleJournal();
      return true;
    },
    purgeExpired: (at) => database.purgeExpired(at),
    doubleCheckFor(forMs) {
      doubleUntil = Math.max(doubleUntil, now() + forMs);
    },
    redisReconnected: degrade,
    async flushJournal() {
      await writing?.catch(() => {});
      await writeJournal();
    },
    journalPending: () => pending.size,
    conflicts: () => conflicts,
    dropped: () => dropped,
    stop() {
      clearTimeout(retry);
      retry = undefined;
    },
  };
}
