import type { JtiJournal, JtiReplayRepository } from './jti-replay-repository.js';

export interface WriteBehindReplayOptions {
  /** The replay table: written behind, reloaded at start, and the authority whenever memory is not complete. */
  table: JtiReplayRepository & JtiJournal;
  now: () => number;
  /** How often the claims accepted in memory are written to the table (default 250 ms). */
  writeEveryMs?: number;
  /** At most this many jtis in memory; beyond it claims go to the table itself, as without this cache (default 250 000). */
  maxEntries?: number;
  /** Told when writing to the table fails (the entries are kept and written at the next turn). */
  onWriteError?: (error: unknown) => void;
}

export interface WriteBehindReplayCache extends JtiReplayRepository {
  /** Writes what memory holds and the table does not yet, and stops writing on a timer; rejects when some could not be written. */
  close(): Promise<void>;
  /** jtis accepted in memory and not yet written to the table. */
  pending(): number;
}

const DEFAULT_WRITE_EVERY_MS = 250;
/** About 25 MB of heap (the gateway runs with a 256 MiB heap): two minutes of claims at 2 000 a second. */
const DEFAULT_MAX_ENTRIES = 250_000;
/** Rows per insert: two parameters a row, PostgreSQL's limit is 65 535 (PGlite shares it). */
const WRITE_BATCH = 1_000;

/**
 * The replay cache of the embedded database, where this process is the only writer (see `isSoleWriter`):
 * a jti is claimed in memory, synchronously, and written to the table behind, a few hundred a statement.
 *
 * Why: PGlite runs each statement synchronously on the thread that serves requests, and a claim written
 * before its answer cost about 60–100 µs of that thread even in groups (0.5 ms alone), a third of a DPoP
 * banks call's time (bench/profile.ts `BENCH_SCENARIO=dpop`). Written behind in groups of hundreds, a row
 * costs about 20 µs.
 *
 * What it keeps, and why that is enough. One process alone opens a data directory, so memory sees every
 * claim: two requests with one jti, concurrent or not, get one acceptance. A restart does not reopen a jti:
 * `close` writes what is pending before the process exits, and a start reloads every live jti before the
 * first claim is answered. A crash (the process killed) loses at most the last `writeEveryMs` of claims, and
 * the table itself is UNLOGGED (migration 0003), so PGlite's recovery after a crash empties it anyway: the
 * same trade the table already made, knowingly, and the one Redis makes. When memory is full (`maxEntries`,
 * about 25 MB) or the table held more live jtis than memory takes at start, claims go to the table as they
 * did without this cache, until every jti it may hold has expired.
 *
 * @example
 * ```ts
 * const replay = createWriteBehindReplayCache({ table: createJtiReplayRepository(db), now: Date.now });
 * await replay.claim(jti, until); // true, then false for ever after, across a clean restart too
 * ```
 */
export function createWriteBehindReplayCache(options: WriteBehindReplayOptions): WriteBehindReplayCache {
  const { table, now } = options;
  const maxEntries = options.maxEntries ?? DEFAULT_MAX_ENTRIES;
  /** jti → the time (ms) until which it is remembered. */
  const seen = new Map<string, number>();
  let unwritten: Array<{ jti: string; rememberUntil: Date }> = [];
  /** Until then (ms) the table may hold live jtis memory does not: a claim memory does not know goes there too. */
  let tableAuthorityUntil = 0;
  let writing: Promise<void> | undefined;
  let lastSweep = 0;

  const ready = (async () => {
    try {
      const live = await table.live(new Date(now()), maxEntries);
      for (const { jti, rememberUntil } of live) seen.set(jti, rememberUntil.getTime());
      // A full load may have left some out: the table stays the authority until the longest of them expires.
      if (live.length >= maxEntries) tableAuthorityUntil = live[0]!.rememberUntil.getTime();
    } catch (error) {
      // Memory knows nothing of what the table holds: every claim goes to the table, as without this cache.
      tableAuthorityUntil = Number.POSITIVE_INFINITY;
      options.onWriteError?.(error);
    }
  })();

  function sweep(at: number): void {
    lastSweep = at;
    for (const [jti, until] of seen) if (until <= at) seen.delete(jti);
  }

  async function write(): Promise<void> {
    while (unwritten.length > 0) {
      const batch = unwritten.slice(0, WRITE_BATCH);
      try {
        await table.recordAll(batch);
      } catch (error) {
        options.onWriteError?.(error);
        return;
      }
      unwritten = unwritten.slice(batch.length);
    }
  }

  function writeNow(): Promise<void> {
    writing ??= write().finally(() => {
      writing = undefined;
    });
    return writing;
  }

  const timer = setInterval(() => void writeNow(), options.writeEveryMs ?? DEFAULT_WRITE_EVERY_MS);
  timer.unref();

  async function claimInTable(jti: string, rememberUntil: Date): Promise<boolean> {
    const claimed = await table.claim(jti, rememberUntil);
    if (claimed) tableAuthorityUntil = Math.max(tableAuthorityUntil, rememberUntil.getTime());
    return claimed;
  }

  return {
    async claim(jti, rememberUntil) {
      // The table's live jtis are in memory before the first claim is answered.
      await ready;
      const at = now();
      const known = seen.get(jti);
      if (known !== undefined && known > at) return false;
      if (seen.size >= maxEntries && at - lastSweep >= 1_000) sweep(at);
      if (at < tableAuthorityUntil || seen.size >= maxEntries) return claimInTable(jti, rememberUntil);
      seen.set(jti, rememberUntil.getTime());
      unwritten.push({ jti, rememberUntil });
      return true;
    },
    async purgeExpired(at = new Date(now())) {
      sweep(at.getTime());
      return table.purgeExpired(at);
    },
    async close() {
      clearInterval(timer);
      await writing;
      await writeNow();
      if (unwritten.length > 0) throw new Error(`replay cache: ${unwritten.length} jtis not written to the table`);
    },
    pending: () => unwritten.length,
  };
}
