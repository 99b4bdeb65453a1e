import { sql, type Kysely } from 'kysely';

/**
 * Replay protection and lockouts that survive a crash (issue 26, finding 1).
 *
 * - `replay_state`: one LOGGED row per place spent jtis are kept (`database`: the jwe_replay table; `redis:<prefix>`:
 *   a Redis), holding the epoch of that place's sentinel (a marker the store holds beside its jtis, gone with
 *   them), when its jtis were last found lost (`lost_at`: single-use credentials issued before it are refused),
 *   and, for the embedded database, whether a process has it open (`open`: still true at a start means the last
 *   process did not close cleanly, so what it held in memory and in the UNLOGGED table is gone).
 * - `auth_throttle` becomes LOGGED again (migration 0003 made it UNLOGGED): a lockout must outlive a crash of
 *   the database or of the embedded database's process. It is written on password checks only (argon2 costs far
 *   more than the write-ahead log); jwe_replay stays UNLOGGED, its losses caught by the sentinel instead.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table replay_state (
      scope text primary key,
      epoch integer not null,
      lost_at timestamptz,
      open boolean not null default false
    )`.execute(db);
  await sql`alter table auth_throttle set logged`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table auth_throttle set unlogged`.execute(db);
  await sql`drop table replay_state`.execute(db);
}
