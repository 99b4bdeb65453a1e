import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { AuthThrottleTable, Database } from '../../db/schema.js';
import { lockMirror, MIRROR_MAX_KEYS } from './lock-mirror.js';
import { liveFailures, nextThrottleState, remainingLock, type ThrottlePolicy, type ThrottleState } from './throttle-policy.js';

/**
 * What a request for a place in the count got: a place (`id` names it), or a refusal and how long to wait:
 * `locked`, a lock is in force; `full`, failures and checks in flight fill the allowance; `busy`, checks in
 * flight alone fill it, nobody having failed (a partner's own burst of right passwords, which may wait).
 */
export type Reservation = { granted: true; id: string } | { granted: false; reason: 'locked' | 'full' | 'busy'; retryAfterMs: number };

/**
 * Failure counters shared by every instance: in the database, or in Redis when REDIS_URL is set.
 *
 * A password check reserves its place before argon2 runs (`reserve`) and settles it after (`release`): the
 * reservation is refused while any key is locked, or while failures in the window plus checks in flight
 * already reach the policy's maximum. Reserving is atomic across instances, so N concurrent guesses evaluate
 * at most `maxFailures` passwords, however they are spread over instances.
 */
export interface ThrottleStore {
  /** The longest lock in force on any of `keys`, in ms (0 when none is locked). */
  lockedFor(keys: readonly string[], now: number): Promise<number>;
  /** Counts one failure on each key; returns the longest lock now in force on them, in ms. */
  recordFailure(keys: readonly string[], now: number): Promise<number>;
  /** Forgets the failures (not the lockout history) of `keys` after a success. */
  reset(keys: readonly string[]): Promise<void>;
  /** Takes a place for one password check on every key at once, or none. */
  reserve(keys: readonly string[], now: number): Promise<Reservation>;
  /** Gives the place back, counting it as a failure when `failed`; returns the longest lock now in force, in ms. */
  release(keys: readonly string[], id: string, now: number, failed: boolean): Promise<number>;
}

/** How long a place is held at most: an instance that died with a check in flight does not hold it for ever. */
export const RESERVATION_HOLD_MS = 60_000;
/** How soon to try again when every place is taken by checks in flight (no lock, so no longer wait). */
const FULL_RETRY_MS = 1_000;

type Row = Selectable<AuthThrottleTable>;

/** An auth_throttle row as the throttle policy reads it (also the durable copy of a Redis lockout, durable-lockouts.ts). */
export const throttleStateOf = (row: Row): ThrottleState => ({
  failures: row.failures,
  windowStartedAt: row.window_started_at.getTime(),
  lockouts: row.lockouts,
  lockedUntil: row.locked_until?.getTime() ?? null,
  lastFailureAt: row.last_failure_at.getTime(),
});

/** A row that has counted nothing reads as no state at all. */
const toState = (row: Row): ThrottleState | undefined => (row.failures === 0 && row.lockouts === 0 && row.locked_until === null ? undefined : throttleStateOf(row));

const inFlight = (row: Row, now: number) => (row.in_flight_until !== null && row.in_flight_until.getTime() > now ? row.in_flight : 0);

export function createDatabaseThrottleStore(db: Kysely<Database>, policy: ThrottlePolicy): ThrottleStore {
  const locks = lockMirror(db);
  const mirrored = (key: string, lockedUntil: number) => {
    if (!locks) return;
    if (locks.size >= MIRROR_MAX_KEYS && !locks.has(key)) locks.clear();
    locks.set(key, lockedUntil);
  };
  /**
   * Runs `work` on the rows of `keys`, created if missing and locked FOR UPDATE in key order (one order for
   * every caller, so that two transactions over overlapping keys never deadlock).
   */
  const withRows = <T>(keys: readonly string[], now: number, work: (trx: Transaction<Database>, rows: Row[]) => Promise<T>) =>
    db.transaction().execute(async (trx) => {
      const sorted = [...new Set(keys)].sort();
      await trx
        .insertInto('auth_throttle')
        .values(sorted.map((key) => ({ key, failures: 0, window_started_at: new Date(now), lockouts: 0, locked_until: null, last_failure_at: new Date(now) })))
        .onConflict((conflict) => conflict.column('key').doNothing())
        .execute();
      const rows = await trx.selectFrom('auth_throttle').selectAll().where('key', 'in', sorted).orderBy('key').forUpdate().execute();
      return work(trx, rows);
    });

  const writeFailure = async (trx: Transaction<Database>, row: Row, now: number, releasing: boolean) => {
    const next = nextThrottleState(toState(row), now, policy);
    await trx
      .updateTable('auth_throttle')
      .set({
        failures: next.failures,
        window_started_at: new Date(next.windowStartedAt),
        lockouts: next.lockouts,
        locked_until: next.lockedUntil === null ? null : new Date(next.lockedUntil),
        last_failure_at: new Date(next.lastFailureAt),
        ...(releasing ? { in_flight: Math.max(0, inFlight(row, now) - 1) } : {}),
      })
      .where('key', '=', row.key)
      .execute();
    mirrored(row.key, next.lockedUntil ?? 0);
    return remainingLock(next, now);
  };

  /** The `inFlight` of a row, in SQL. */
  const liveInFlight = (now: number) => sql<number>`(case when in_flight_until > ${new Date(now)} then in_flight else 0 end)`;

  /**
   * In a statement's WHERE: its commit does not wait for the write-ahead log to reach the disk (PostgreSQL's
   * synchronous_commit, for this statement's transaction alone). For the places a right password takes and
   * gives back, the two statements of every login: auth_throttle is LOGGED so that failures and lockouts
   * survive a crash (migration 0024), and they are still written with a durable commit; a place whose commit a
   * crash loses costs nothing (it lapses at in_flight_until). Waiting for the disk twice per login cost 13 ms
   * here on PostgreSQL (6.5 ms a flush) one login at a time.
   */
  const commitWithoutFlush = sql<boolean>`set_config('synchronous_commit', 'off', true) = 'off'`;

  /**
   * The common case in one statement instead of a transaction of four: a place on one existing key, taken
   * only if it is not locked and its live failures (as `liveFailures` reads them) plus its live checks in
   * flight stay under the maximum. Atomic on its own: an UPDATE locks the row and, under READ COMMITTED,
   * evaluates its condition again on the version a concurrent writer committed, so two instances cannot both
   * take the last place. False when it took nothing (missing row, lock, full): the caller then takes the
   * transactional path, which decides and says why.
   */
  const reserveOne = async (key: string, now: number): Promise<boolean> => {
    const at = new Date(now);
    const granted = await db
      .updateTable('auth_throttle')
      .set({ in_flight: sql<number>`${liveInFlight(now)} + 1`, in_flight_until: new Date(now + RESERVATION_HOLD_MS) })
      .where('key', '=', key)
      .where(sql<boolean>`coalesce(locked_until <= ${at}, true)`)
      .where(
        sql<boolean>`(case when last_failure_at >= ${new Date(now - policy.memoryMs)} and window_started_at >= ${new Date(now - policy.windowMs)} then failures else 0 end) + ${liveInFlight(now)} < ${policy.maxFailures}`,
      )
      .where(commitWithoutFlush)
      .returning('key')
      .executeTakeFirst();
    return granted !== undefined;
  };

  return {
    async lockedFor(keys, now) {
      if (keys.length === 0) return 0;
      if (locks) {
        let until = 0;
        const missing: string[] = [];
        for (const key of keys) {
          const known = locks.get(key);
          if (known === undefined) missing.push(key);
          else until = Math.max(until, known);
        }
        if (missing.length > 0) {
          const rows = await db.selectFrom('auth_throttle').select(['key', 'locked_until']).where('key', 'in', missing).execute();
          const found = new Map(rows.map((row) => [row.key, row.locked_until?.getTime() ?? 0]));
          for (const key of missing) {
            // A write since the read knows better: it filled the entry itself.
            const written = locks.get(key);
            if (written === undefined) mirrored(key, found.get(key) ?? 0);
            until = Math.max(until, written ?? found.get(key) ?? 0);
          }
        }
        return Math.max(0, until - now);
      }
      const rows = await db.selectFrom('auth_throttle').selectAll().where('key', 'in', [...keys]).where('locked_until', '>', new Date(now)).execute();
      return Math.max(0, ...rows.map((row) => remainingLock(toState(row), now)));
    },
    async recordFailure(keys, now) {
      if (keys.length === 0) return 0;
      return withRows(keys, now, async (trx, rows) => {
        let longest = 0;
        for (const row of rows) longest = Math.max(longest, await writeFailure(trx, row, now, false));
        return longest;
      });
    },
    async reset(keys) {
      if (keys.length === 0) return;
      await db.updateTable('auth_throttle').set({ failures: 0 }).where('key', 'in', [...keys]).where('failures', '>', 0).execute();
    },
    async reserve(keys, now) {
      if (keys.length === 1 && (await reserveOne(keys[0]!, now))) return { granted: true, id: '' };
      // Several keys (all or none), a key seen for the first time, or a refusal (whose reason this tells).
      return withRows(keys, now, async (trx, rows): Promise<Reservation> => {
        const locked = Math.max(0, ...rows.map((row) => remainingLock(toState(row), now)));
        if (locked > 0) return { granted: false, reason: 'locked', retryAfterMs: locked };
        const full = rows.filter((row) => liveFailures(toState(row), now, policy) + inFlight(row, now) >= policy.maxFailures);
        if (full.length > 0) {
          const busy = full.every((row) => liveFailures(toState(row), now, policy) === 0);
          return { granted: false, reason: busy ? 'busy' : 'full', retryAfterMs: FULL_RETRY_MS };
        }
        for (const row of rows) {
          await trx
            .updateTable('auth_throttle')
            .set({ in_flight: inFlight(row, now) + 1, in_flight_until: new Date(now + RESERVATION_HOLD_MS) })
            .where('key', '=', row.key)
            .execute();
        }
        return { granted: true, id: '' };
      });
    },
    async release(keys, _id, now, failed) {
      if (keys.length === 0) return 0;
      if (!failed && keys.length === 1) {
        await db.updateTable('auth_throttle').set({ in_flight: sql<number>`greatest(0, ${liveInFlight(now)} - 1)` }).where('key', '=', keys[0]!).where(commitWithoutFlush).execute();
        return 0;
      }
      return withRows(keys, now, async (trx, rows) => {
        let longest = 0;
        for (const row of rows) {
          if (failed) longest = Math.max(longest, await writeFailure(trx, row, now, true));
          else await trx.updateTable('auth_throttle').set({ in_flight: Math.max(0, inFlight(row, now) - 1) }).where('key', '=', row.key).execute();
        }
        return longest;
      });
    },
  };
}

/** Forgets keys untouched for longer than the policy remembers them. */
export async function purgeThrottle(db: Kysely<Database>, policy: ThrottlePolicy, now: number): Promise<void> {
  await db
    .deleteFrom('auth_throttle')
    .where('last_failure_at', '<', new Date(now - policy.memoryMs))
    .where(sql<boolean>`coalesce(locked_until < ${new Date(now)}, true)`)
    .where(sql<boolean>`coalesce(in_flight_until < ${new Date(now)}, true)`)
    .execute();
}
