import { sql, type Kysely } from 'kysely';

/**
 * Pending single sign-ons are bounded per client address and in total (issue 33, finding 6): each row now names
 * the address whose `/sso/start` made it, indexed with its time so that counting an address's recent sign-ins
 * reads the index only. Rows made before this migration have none and count towards the total only.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table sso_logins add column client_address text`.execute(db);
  await sql`create index sso_logins_address on sso_logins (client_address, created_at)`.execute(db);
  await sql`create index sso_logins_created on sso_logins (created_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index sso_logins_created`.execute(db);
  await sql`drop index sso_logins_address`.execute(db);
  await sql`alter table sso_logins drop column client_address`.execute(db);
}
