import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { nextThrottleState, remainingLock, type ThrottlePolicy, type ThrottleState } from './throttle-policy.js';

/** Failure counters shared by every instance: in the database, or in Redis when REDIS_URL is set. */
export interface ThrottleStore {
  /** The longest lock in force on any of `keys`, in ms (0 when none is locked). */
  lockedFor(keys: readonly string[], now: number): Promise<number>;
  /** Counts one failure on each key; returns the longest lock now in force on them, in ms. */
  recordFailure(keys: readonly string[], now: number): Promise<number>;
  /** Forgets the failures (not the lockout history) of `keys` after a success. */
  reset(keys: readonly string[]): Promise<void>;
}

export function createDatabaseThrottleStore(db: Kysely<Database>, policy: ThrottlePolicy): ThrottleStore {
  const toState = (row: { failures: number; window_started_at: Date; lockouts: number; locked_until: Date | null; last_failure_at: Date }): ThrottleState => ({
    failures: row.failures,
    windowStartedAt: row.window_started_at.getTime(),
    lockouts: row.lockouts,
    lockedUntil: row.locked_until?.getTime() ?? null,
    lastFailureAt: row.last_failure_at.getTime(),
  });
  return {
    async lockedFor(keys, now) {
      if (keys.length === 0) return 0;
      const rows = await db.selectFrom('auth_throttle').selectAll().where('key', 'in', [...keys]).where('locked_until', '>', new Date(now)).execute();
      return Math.max(0, ...rows.map((row) => remainingLock(toState(row), now)));
    },
    async recordFailure(keys, now) {
      let longest = 0;
      for (const key of keys) {
        const state = await db.transaction().execute(async (trx) => {
          // Insert-or-lock first, so that concurrent failures on one key are counted one after the other.
          await trx
            .insertInto('auth_throttle')
            .values({ key, failures: 0, window_started_at: new Date(now), lockouts: 0, locked_until: null, last_failure_at: new Date(now) })
            .onConflict((conflict) => conflict.column('key').doNothing())
            .execute();
          const row = await trx.selectFrom('auth_throttle').selectAll().where('key', '=', key).forUpdate().executeTakeFirstOrThrow();
          const previous = row.failures === 0 && row.lockouts === 0 && row.locked_until === null ? undefined : toState(row);
          const next = nextThrottleState(previous, now, policy);
          await trx
            .updateTable('auth_throttle')
            .set({
              failures: next.failures,
              window_started_at: new Date(next.windowStartedAt),
              lockouts: next.lockouts,
              locked_until: next.lockedUntil === null ? null : new Date(next.lockedUntil),
              last_failure_at: new Date(next.lastFailureAt),
            })
            .where('key', '=', key)
            .execute();
          return next;
        });
        longest = Math.max(longest, remainingLock(state, now));
      }
      return longest;
    },
    async reset(keys) {
      if (keys.length === 0) return;
      await db.updateTable('auth_throttle').set({ failures: 0 }).where('key', 'in', [...keys]).where('failures', '>', 0).execute();
    },
  };
}

/** Forgets keys untouched for longer than the policy remembers them. */
export async function purgeThrottle(db: Kysely<Database>, policy: ThrottlePolicy, now: number): Promise<void> {
  await db.deleteFrom('auth_throttle').where('last_failure_at', '<', new Date(now - policy.memoryMs)).where(sql<boolean>`coalesce(locked_until < ${new Date(now)}, true)`).execute();
}
