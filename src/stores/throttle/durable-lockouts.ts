import { sql, type Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { lockMirror } from './lock-mirror.js';
import type { ThrottleState } from './throttle-policy.js';
import { throttleStateOf } from './throttle-store.js';

/**
 * Lockouts decided in Redis, kept in the database too (auth_throttle, LOGGED since migration 0024): Redis
 * without persistence forgets them when it restarts, the database does not. A lockout is written once, when
 * it is set (at most one write per `maxFailures` failures of a key), and merged with what the row holds: the
 * later lock, the higher lockout count. While Redis may have lost them, the throttle falls back to the
 * database store, which reads these rows; once the loss is recorded they are put back into Redis (`live`).
 */
export interface DurableLockouts {
  record(key: string, state: ThrottleState): Promise<void>;
  /** The lockouts still in force at `now` (read in `db`, the transaction of the replay state's check). */
  live(db: Kysely<Database>, now: number): Promise<Array<{ key: string; state: ThrottleState }>>;
}

export function createDurableLockouts(db: Kysely<Database>): DurableLockouts {
  return {
    async record(key, state) {
      if (state.lockedUntil === null) return;
      await db
        .insertInto('auth_throttle')
        .values({
          key,
          failures: 0,
          window_started_at: new Date(state.windowStartedAt),
          lockouts: state.lockouts,
          locked_until: new Date(state.lockedUntil),
          last_failure_at: new Date(state.lastFailureAt),
        })
        .onConflict((conflict) =>
          conflict.column('key').doUpdateSet({
            lockouts: sql<number>`greatest(auth_throttle.lockouts, excluded.lockouts)`,
            locked_until: sql<Date>`greatest(auth_throttle.locked_until, excluded.locked_until)`,
            last_failure_at: sql<Date>`greatest(auth_throttle.last_failure_at, excluded.last_failure_at)`,
          }),
        )
        .execute();
      // The embedded database's mirror of locks (lock-mirror.ts) must never be looser than the table: a key it
      // holds takes the later end; a key it does not hold is read from the table when asked.
      const mirror = lockMirror(db);
      const mirrored = mirror?.get(key);
      if (mirror && mirrored !== undefined) mirror.set(key, Math.max(mirrored, state.lockedUntil));
    },
    async live(executor, now) {
      const rows = await executor.selectFrom('auth_throttle').selectAll().where('locked_until', '>', new Date(now)).execute();
      return rows.map((row) => ({ key: row.key, state: throttleStateOf(row) }));
    },
  };
}
