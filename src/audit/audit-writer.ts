import { withTimeout } from '../async/with-timeout.js';
import { addressKey } from '../partners/ip-allowlist.js';
import type { AuditEntry } from './audit-entry.js';
import type { AuditRepository, CountedEntry } from './audit-repository.js';

export interface AuditWriter {
  /** Queues an entry; it is written within `intervalMs` (or sooner when the batch fills). */
  record(entry: AuditEntry): void;
  /** Writes everything queued so far. */
  /**
   * Writes everything queued so far, and what is held for its window unless `held` is false (an audit search:
   * a follow polling every second would otherwise end each window of its own counted entry at once).
   */
  flush(options?: { held?: boolean }): Promise<void>;
  /** Stops the timer and writes what is left, retrying until `timeoutMs` has passed. */
  close(timeoutMs?: number): Promise<void>;
  /** Entries accepted but not yet written. */
  pending(): number;
  /** True while `maxPending` entries wait: audited requests are then refused until the database takes them. */
  full(): boolean;
  /** Entries the database refused for their data, and that were therefore dropped, since the writer started. */
  dropped(): number;
}

/** Handed to `onError` for each entry dropped because the database refused its data. */
export class AuditEntryDroppedError extends Error {
  override name = 'AuditEntryDroppedError';
  constructor(
    readonly entry: AuditEntry,
    readonly dropped: number,
    options: { cause: unknown },
  ) {
    super(`audit entry dropped: the database refused its data (action ${entry.action}, request ${entry.requestId ?? 'none'}; ${dropped} dropped since start)`, options);
  }
}

export interface AuditWriterOptions {
  intervalMs?: number;
  batchSize?: number;
  /** Entries that may wait in memory (AUDIT_QUEUE_MAX); beyond that `full()` says so. */
  maxPending?: number;
  onError?: (error: unknown) => void;
}

/**
 * Writes the audit trail off the request path, in batches. An entry that fails to be written (the database
 * is down) stays queued and is tried again with the next batch, so nothing accepted is lost while the
 * process lives; `close()` on a graceful shutdown drains the queue. Entries are made storable when written
 * (the repository applies storableAuditEntry), but should the database still refuse a batch for its data, retrying it would
 * fail the same way for ever and hold up everything behind it: its entries are then written one by one, and
 * only those refused are dropped, each reported to `onError`.
 *
 * Successful bearer banks calls and client-credentials grants (entries carrying `aggregate`) are counted
 * rather than written one by one: the calls of one action, partner, client address, aggregation key (the
 * token; the grant's method and binding) and status within one second become one entry whose `count` says how
 * many calls it stands for, `requestId` the first and `lastRequestId` the last of them. An entry is
 * counted into only while it waits in the queue; once a batch is taken for writing, later calls start a new
 * entry, so a second may be split over a few entries but every call is counted exactly once. An entry with
 * `aggregate.windowMs` is held until its window ends (or a flush) and counts the like calls of the whole window,
 * from one client address or, for IPv6, one /64 (the entry names the first address): anyone who reaches a
 * listener holds a /64, so counting per address would let them write a row per request. Failures,
 * logins, refreshes, logouts, introspections, revocations and admin changes keep an entry each.
 */
export function createAuditWriter(repository: Pick<AuditRepository, 'append'>, options: AuditWriterOptions = {}): AuditWriter {
  const intervalMs = options.intervalMs ?? 250;
  const batchSize = options.batchSize ?? 500;
  const maxPending = options.maxPending ?? 100_000;
  let queue: CountedEntry[] = [];
  /** Aggregated entries still in the queue, by partner, token, second and status. */
  const open = new Map<string, CountedEntry>();
  /** Entries of a longer window (aggregate.windowMs), held out of the queue until their window ends, by key. */
  const held = new Map<string, { entry: CountedEntry; endsAt: number }>();
  let writing: Promise<void> | undefined;
  let dropped = 0;
  let failing = false;

  /**
   * Writes the queue's first batch, then further batches while a whole one waits, and, to `drain`, until every
   * entry queued when it started is written. Entries recorded meanwhile wait for the timer unless they fill a
   * batch: under load, writing them at once kept one small statement after another in flight (on PostgreSQL
   * 46 a second, 5 ms of the server each, at 1 500 grants a second), each emptying the map of entries still
   * open to counting; and a drain that waited for an empty queue would never end while calls go on.
   */
  async function writeOnce(drain: boolean): Promise<void> {
    // Entries this write must take whatever the batch size: the first one's batch at least.
    let owed = drain ? queue.length : 1;
    while (queue.length > 0 && (owed > 0 || queue.length >= batchSize)) {
      owed -= Math.min(batchSize, queue.length);
      // From here on the queued entries are serialized: none may be counted into any more.
      open.clear();
      const batch = queue.slice(0, batchSize);
      try {
        await repository.append(batch);
      } catch (error) {
        if (!isDataException(error)) throw error;
        await writeOneByOne(batch.length);
        continue;
      }
      queue.splice(0, batch.length);
    }
  }

  /** Writes the first `count` queued entries one at a time, dropping those the database refuses for their data. */
  async function writeOneByOne(count: number): Promise<void> {
    for (let written = 0; written < count; written++) {
      const entry = queue[0]!;
      try {
        await repository.append([entry]);
        queue.shift();
      } catch (error) {
        if (!isDataException(error)) throw error;
        queue.shift();
        dropped += 1;
        options.onError?.(new AuditEntryDroppedError(entry, dropped, { cause: error }));
      }
    }
  }

  function write(drain: boolean): Promise<void> {
    writing ??= writeOnce(drain)
      .then(
        () => {
          failing = false;
        },
        (error: unknown) => {
          failing = true;
          throw error;
        },
      )
      .finally(() => {
        writing = undefined;
      });
    return writing;
  }

  /** Queues the held entries whose window has ended (all of them when `until` is infinite). */
  function release(until: number): void {
    for (const [key, { entry, endsAt }] of held) {
      if (endsAt > until) continue;
      held.delete(key);
      queue.push(entry);
    }
  }

  async function flush({ held: withHeld = true }: { held?: boolean } = {}): Promise<void> {
    // What is held for its window is written too (a test, a shutdown), unless a search asks: it shows it once the window ends.
    if (withHeld) release(Infinity);
    // A write already in flight may stop short of the queue's end; everything queued is written after it.
    while (writing) await writing;
    await write(true);
  }

  const timer = setInterval(() => {
    if (held.size > 0) release(Date.now());
    if (queue.length > 0 && !writing) write(false).catch((error: unknown) => options.onError?.(error));
  }, intervalMs);
  timer.unref();

  return {
    record(entry) {
      if (entry.aggregate?.windowMs !== undefined) {
        const { windowMs } = entry.aggregate;
        const window = Math.floor(entry.at.getTime() / windowMs);
        const address = entry.clientAddress === null ? null : addressKey(entry.clientAddress);
        const key = `${entry.action}\u0000${entry.partner}\u0000${address}\u0000${entry.aggregate.key}\u0000${window}\u0000${entry.status}`;
        const counted = held.get(key);
        if (counted) {
          counted.entry.count = (counted.entry.count ?? 1) + 1;
          counted.entry.lastRequestId = entry.requestId;
          return;
        }
        const { aggregate: _counted, ...plain } = entry;
        held.set(key, { entry: { ...plain, count: 1, lastRequestId: entry.requestId }, endsAt: (window + 1) * windowMs });
        return;
      }
      if (entry.aggregate) {
        const second = Math.floor(entry.at.getTime() / 1000);
        const key = `${entry.action}\u0000${entry.partner}\u0000${entry.clientAddress}\u0000${entry.aggregate.key}\u0000${second}\u0000${entry.status}`;
        const counted = open.get(key);
        if (counted) {
          counted.count = (counted.count ?? 1) + 1;
          counted.lastRequestId = entry.requestId;
          return;
        }
        const { aggregate: _counted, ...plain } = entry;
        const fresh: CountedEntry = { ...plain, count: 1 };
        fresh.lastRequestId = fresh.requestId;
        open.set(key, fresh);
        queue.push(fresh);
      } else {
        queue.push(entry);
      }
      // One write at a time, and none from here while writes fail (the timer retries): during an outage each
      // request would otherwise start a write, or wait on the one in flight, and report its failure again.
      if (queue.length >= batchSize && !writing && !failing) write(false).catch((error: unknown) => options.onError?.(error));
    },
    flush: (options) => flush(options),
    async close(timeoutMs = 10_000) {
      clearInterval(timer);
      release(Infinity);
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        try {
          // An attempt may hang as long as the pool's timeouts allow; the deadline does not wait for it.
          await withTimeout(flush(), deadline - Date.now(), () => `audit trail not written within ${timeoutMs} ms: ${queue.length} entries left`);
          if (queue.length === 0) return;
        } catch (error) {
          if (Date.now() >= deadline) throw error;
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
      }
    },
    pending: () => queue.length + held.size,
    full: () => queue.length + held.size >= maxPending,
    dropped: () => dropped,
  };
}

/** A PostgreSQL data exception (SQLSTATE class 22): the values were refused, and would be refused again. */
function isDataException(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('22');
}
