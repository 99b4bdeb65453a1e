import { type Kysely } from 'kysely';

/**
 * Password checks in flight: a check takes its place in a key's count before argon2 runs (in_flight) and gives
 * it back when the password proves right, so that N concurrent guesses cannot all pass the lock check before
 * any of them is recorded. A place held by an instance that died is forgotten at in_flight_until.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('auth_throttle').addColumn('in_flight', 'integer', (col) => col.notNull().defaultTo(0)).execute();
  await db.schema.alterTable('auth_throttle').addColumn('in_flight_until', 'timestamptz').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('auth_throttle').dropColumn('in_flight_until').execute();
  await db.schema.alterTable('auth_throttle').dropColumn('in_flight').execute();
}
