import { sql, type Kysely } from 'kysely';

/**
 * Partners told when the bank list changes (issue 34): webhook endpoints per partner and a durable outbox.
 *
 * - `webhook_endpoints`: a partner's URL, its signing scheme (`v1a` ed25519 or `v1` HMAC-SHA256) and its signing
 *   material sealed with MASTER_KEY; after a rotation the previous material is kept until `previous_until`, and
 *   both signatures are sent meanwhile. An endpoint failing for the whole retry window is disabled.
 * - `webhook_events`: one row per published bank list version (unique), its body as sent (text: the signed bytes).
 * - `webhook_cursor`: the last list version made into an event; starts at the current version, so that a
 *   gateway upgraded onto an existing list does not announce its history.
 * - `webhook_deliveries`: the outbox, one row per event and endpoint (and per replay); an instance claims due rows
 *   by setting `lease_until` (with FOR UPDATE SKIP LOCKED), so each is sent by one instance at a time.
 * - `webhook_attempts`: every attempt, the delivery log an endpoint's operator reads.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table webhook_endpoints (
      id uuid primary key,
      partner_id uuid not null references partners (id) on delete cascade,
      url text not null,
      scheme text not null check (scheme in ('v1', 'v1a')),
      secret_sealed text not null,
      public_key text,
      previous_scheme text check (previous_scheme in ('v1', 'v1a')),
      previous_secret_sealed text,
      previous_until timestamptz,
      status text not null default 'enabled' check (status in ('enabled', 'disabled')),
      failing_since timestamptz,
      disabled_at timestamptz,
      disabled_reason text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index webhook_endpoints_partner on webhook_endpoints (partner_id)`.execute(db);
  await sql`create table webhook_events (
      id text primary key,
      type text not null,
      bank_version integer unique,
      body text not null,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index webhook_events_created_at on webhook_events (created_at)`.execute(db);
  await sql`create table webhook_cursor (
      id integer primary key check (id = 1),
      bank_version integer not null
    )`.execute(db);
  await sql`insert into webhook_cursor (id, bank_version) select 1, coalesce((select version from bank_list_head where id = 1), 0)`.execute(db);
  await sql`create table webhook_deliveries (
      id uuid primary key,
      event_id text not null references webhook_events (id) on delete cascade,
      endpoint_id uuid not null references webhook_endpoints (id) on delete cascade,
      status text not null default 'pending' check (status in ('pending', 'delivered', 'failed')),
      attempts integer not null default 0,
      next_attempt_at timestamptz not null,
      lease_until timestamptz,
      leased_by text,
      replay boolean not null default false,
      created_at timestamptz not null,
      finished_at timestamptz,
      last_error text
    )`.execute(db);
  await sql`create index webhook_deliveries_due on webhook_deliveries (next_attempt_at) where status = 'pending'`.execute(db);
  await sql`create index webhook_deliveries_endpoint on webhook_deliveries (endpoint_id, created_at)`.execute(db);
  await sql`create table webhook_attempts (
      id bigserial primary key,
      delivery_id uuid not null references webhook_deliveries (id) on delete cascade,
      endpoint_id uuid not null references webhook_endpoints (id) on delete cascade,
      event_id text not null,
      at timestamptz not null,
      outcome text not null check (outcome in ('delivered', 'failed')),
      status_code integer,
      error text,
      duration_ms integer not null
    )`.execute(db);
  await sql`create index webhook_attempts_endpoint on webhook_attempts (endpoint_id, at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['webhook_attempts', 'webhook_deliveries', 'webhook_cursor', 'webhook_events', 'webhook_endpoints']) {
    await sql`drop table ${sql.table(table)}`.execute(db);
  }
}
