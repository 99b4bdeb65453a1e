import { sql, type Kysely } from 'kysely';

/**
 * Member ids from the settlement bank's B2C participant list, with the source of every field (issue 34):
 *
 * - `banks.participants_listed`: whether the latest participant list listed the bank (null before one was read);
 *   `banks.field_sources`: where each curated or derived field came from (registry, participants or operator, who
 *   and when); null for banks set before sources were recorded.
 * - `bank_participant_proposals`: name matches waiting for an operator (pending) and those an operator rejected
 *   (kept, so that the same member id is not proposed for the bank again); a confirmed one is applied as a version
 *   and deleted.
 * - `bank_participant_runs`: every reading of the list (an import, a scheduled or manual sync), its outcome and
 *   its matching (the unmatched entries and banks), newest read by the status and the schedule's backoff.
 * - a version may now be made by the participant list (`source` 'participants').
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table banks add column participants_listed boolean`.execute(db);
  await sql`alter table banks add column field_sources jsonb`.execute(db);
  await sql`create table bank_participant_proposals (
      bic text primary key,
      member_id text not null,
      participant_name text not null,
      participant_name_en text,
      bank_name text not null,
      status text not null check (status in ('pending', 'rejected')),
      proposed_at timestamptz not null,
      decided_by jsonb,
      decided_at timestamptz
    )`.execute(db);
  await sql`create table bank_participant_runs (
      id serial primary key,
      started_at timestamptz not null,
      finished_at timestamptz not null,
      trigger text not null check (trigger in ('import', 'schedule', 'manual')),
      author jsonb not null,
      source text,
      outcome text not null check (outcome in ('applied', 'unchanged', 'held', 'failed')),
      error text,
      version integer,
      matching jsonb
    )`.execute(db);
  await sql`alter table bank_versions drop constraint bank_versions_source_check`.execute(db);
  await sql`alter table bank_versions add constraint bank_versions_source_check check (source in ('seed', 'add', 'remove', 'edit', 'reorder', 'import', 'replace', 'sync', 'restore', 'admit', 'participants'))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`update bank_versions set source = 'import' where source = 'participants'`.execute(db);
  await sql`alter table bank_versions drop constraint bank_versions_source_check`.execute(db);
  await sql`alter table bank_versions add constraint bank_versions_source_check check (source in ('seed', 'add', 'remove', 'edit', 'reorder', 'import', 'replace', 'sync', 'restore', 'admit'))`.execute(db);
  await sql`drop table bank_participant_runs`.execute(db);
  await sql`drop table bank_participant_proposals`.execute(db);
  await sql`alter table banks drop column field_sources`.execute(db);
  await sql`alter table banks drop column participants_listed`.execute(db);
}
