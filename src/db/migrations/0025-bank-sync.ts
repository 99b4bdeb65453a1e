import { sql, type Kysely } from 'kysely';

/**
 * The scheduled bank registry sync (issue 24): `bank_sync_runs` records every run (scheduled or run by an
 * operator) with its outcome, and keeps a run the removal guard held, with the registry entries it read and the
 * changes it previewed, until an operator approves it (applied exactly as previewed) or rejects it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table bank_sync_runs (
      id serial primary key,
      started_at timestamptz not null,
      finished_at timestamptz not null,
      trigger text not null check (trigger in ('schedule', 'manual')),
      author jsonb not null,
      source text not null,
      outcome text not null check (outcome in ('applied', 'held', 'unchanged', 'failed')),
      error text,
      received integer,
      base_version integer,
      version integer,
      added integer not null default 0,
      changed integer not null default 0,
      removed integer not null default 0,
      changes jsonb not null default '[]',
      entries jsonb,
      hold_reason text,
      hold_status text check (hold_status in ('pending', 'approved', 'rejected', 'superseded', 'conflict')),
      decided_by jsonb,
      decided_at timestamptz,
      decision_comment text
    )`.execute(db);
  await sql`create index bank_sync_runs_pending on bank_sync_runs (id) where hold_status = 'pending'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table bank_sync_runs`.execute(db);
}
