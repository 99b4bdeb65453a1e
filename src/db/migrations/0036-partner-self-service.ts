import { sql, type Kysely } from 'kysely';

/**
 * What a partner changes about itself through the self-service API (issue 37):
 *
 * - `partners.self_managed_allowlist`: a security operator lets the partner replace its own IP allowlist
 *   (`PUT /api/v1/self/allowlist`); off for every partner until then.
 * - `partners.previous_password_hash`, `previous_password_until`: after a partner rotates its API password
 *   (`POST /api/v1/self/password`), the old password's hash keeps working until the overlap ends; an operator's new
 *   password clears both at once.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table partners add column self_managed_allowlist boolean not null default false`.execute(db);
  await sql`alter table partners add column previous_password_hash text`.execute(db);
  await sql`alter table partners add column previous_password_until timestamptz`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const column of ['previous_password_until', 'previous_password_hash', 'self_managed_allowlist']) {
    await sql`alter table partners drop column ${sql.ref(column)}`.execute(db);
  }
}
