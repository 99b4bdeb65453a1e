import { sql, type Kysely } from 'kysely';

/**
 * The JWE replay cache and the brute-force counters become UNLOGGED: no write-ahead log, so each accepted
 * JWE costs an insert without a disk flush (with a logged table, every encrypted-password call waited for an
 * fsync). The price, accepted knowingly: after a PostgreSQL crash (not a clean restart) both tables come back
 * empty, so a JWE captured in the two minutes before the crash could be replayed once, and lockouts in
 * progress are forgotten. Redis (REDIS_URL) makes the same trade.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table jwe_replay set unlogged`.execute(db);
  await sql`alter table auth_throttle set unlogged`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table jwe_replay set logged`.execute(db);
  await sql`alter table auth_throttle set logged`.execute(db);
}
