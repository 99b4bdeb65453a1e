import { sql, type Kysely } from 'kysely';

/**
 * Webhook events meant for one partner (issue 37's `credential.expiring`): `webhook_events.partner_id` names the
 * partner an event is for (null: every partner, as `sbp_banks.updated`), so that a replay never sends one partner's
 * event to another's endpoint. Events go with their partner.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table webhook_events add column partner_id uuid references partners (id) on delete cascade`.execute(db);
  await sql`create index webhook_events_partner on webhook_events (partner_id) where partner_id is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index webhook_events_partner`.execute(db);
  await sql`alter table webhook_events drop column partner_id`.execute(db);
}
