import { sql, type Kysely } from 'kysely';
import { createPartition, dayStart, DAY_MS, isEmbedded, RETENTION_SETTING } from '../audit-partitions.js';

/** Day partitions made by the migration itself: today and the week ahead (the gateway keeps them ahead after). */
const DAYS_AHEAD = 7;

/**
 * Audit retention (AUDIT_RETENTION_DAYS).
 *
 * The append-only trigger now lets a DELETE through when the transaction set `partner_gateway.audit_retention`
 * to on, which only the retention job and the legacy move below do; updates stay refused for everyone.
 *
 * PostgreSQL: `audit_log` becomes range-partitioned by day on `at`, so that retention drops whole partitions
 * instead of deleting rows. Rewriting a large table inside this migration would lock it for as long as the
 * copy takes, so the migration only renames the existing table to `audit_log_legacy` (a catalogue change,
 * instant whatever its size) and creates the partitioned table in its place, keeping the same id sequence;
 * writers go on at once, into the new table. The retention job then moves the legacy rows into their
 * partitions in bounded batches, newest first, each batch deleted and inserted in one transaction (no row
 * lost, none seen twice), and drops the emptied legacy table. Until then the audit search shows the moved
 * rows and the newer ones; the legacy rows appear as they move (docs/performance.md has the timing).
 *
 * Indexes, per partition: `id` (search and cursor paging, newest first), `(partner, id)` (search by
 * partner), `(at, id)` (time ranges newest first, the oldest-entry metric). The console's "last call" column reads the new
 * table partner_last_call instead of the trail.
 *
 * Both get `count` (the calls an entry stands for: 1, or more for an aggregated entry of successful bearer
 * banks calls, whose `request_id` is then the first call's and `last_request_id` the last's).
 *
 * PGlite (the embedded default) keeps one table, retention deletes from it in bounded batches.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create or replace function audit_log_append_only() returns trigger language plpgsql as $$
    begin
      if tg_op = 'DELETE' and current_setting(${sql.lit(RETENTION_SETTING)}, true) = 'on' then return old; end if;
      raise exception 'audit_log is append-only';
    end $$`.execute(db);
  if (await isEmbedded(db)) {
    await sql`alter table audit_log add column count integer not null default 1, add column last_request_id text`.execute(db);
    // Time-range searches read newest first by (at, id): see AuditRepository.query.
    await sql`drop index audit_log_at`.execute(db);
    await sql`create index audit_log_at on audit_log (at, id)`.execute(db);
    await createLastCalls(db);
    await sql`insert into partner_last_call (partner, id, at, action)
      select distinct on (partner) partner, id, at, action from audit_log
      where partner is not null and outcome = 'success' and action in ('login', 'refresh', 'logout', 'banks')
      order by partner, at desc, id desc`.execute(db);
    return;
  }
  await sql`alter table audit_log rename to audit_log_legacy`.execute(db);
  await sql`alter index audit_log_pkey rename to audit_log_legacy_pkey`.execute(db);
  await sql`alter index audit_log_at rename to audit_log_legacy_at`.execute(db);
  await sql`alter index audit_log_partner rename to audit_log_legacy_partner`.execute(db);
  await sql`create table audit_log (
      id bigint not null default nextval('audit_log_id_seq'),
      at timestamptz not null,
      action text not null,
      outcome text not null,
      status integer,
      partner text,
      client_address text,
      reason text,
      request_id text,
      details jsonb,
      count integer not null default 1,
      last_request_id text
    ) partition by range (at)`.execute(db);
  await sql`alter sequence audit_log_id_seq owned by audit_log.id`.execute(db);
  await sql`create index audit_log_id on audit_log (id)`.execute(db);
  await sql`create index audit_log_at on audit_log (at, id)`.execute(db);
  await sql`create index audit_log_partner on audit_log (partner, id)`.execute(db);
  // Filled from the legacy rows as they move (see AuditRetention).
  await createLastCalls(db);
  await sql`create trigger audit_log_no_change before update or delete on audit_log
    for each row execute function audit_log_append_only()`.execute(db);
  await sql`create table audit_log_default partition of audit_log default`.execute(db);
  const today = dayStart(Date.now());
  for (let day = 0; day <= DAYS_AHEAD; day++) await createPartition(db, today + day * DAY_MS);
}

/**
 * Each partner's latest successful partner API call, kept by the audit writer in the statement that appends
 * the batch: the console's "last call" column is then one primary-key lookup per partner, however many rows
 * and partitions the trail has (a search of the trail would descend an index in every day partition).
 */
async function createLastCalls(db: Kysely<unknown>): Promise<void> {
  await sql`create table partner_last_call (
      partner text primary key,
      id bigint not null,
      at timestamptz not null,
      action text not null
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (await isEmbedded(db)) {
    await sql`drop table partner_last_call`.execute(db);
    await sql`drop index audit_log_at`.execute(db);
    await sql`create index audit_log_at on audit_log (at)`.execute(db);
    await sql`alter table audit_log drop column count, drop column last_request_id`.execute(db);
    return;
  }
  throw new Error('0004-audit-retention cannot be undone: the partitioned audit table would have to be copied back');
}
