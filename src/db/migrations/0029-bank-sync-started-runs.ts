import { sql, type Kysely } from 'kysely';

/**
 * A sync run is recorded as `started` before its source is fetched (issue 33): a run whose instance dies while
 * reading it (out of memory, a crash, a restart) leaves that record, which the next check marks failed with no
 * end and waits after (backing off), instead of finding no run and fetching the same source again at every start.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table bank_sync_runs alter column finished_at drop not null`.execute(db);
  await sql`alter table bank_sync_runs drop constraint bank_sync_runs_outcome_check`.execute(db);
  await sql`alter table bank_sync_runs add constraint bank_sync_runs_outcome_check check (outcome in ('started', 'applied', 'held', 'unchanged', 'failed'))`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`update bank_sync_runs set outcome = 'failed', finished_at = started_at where outcome = 'started' or finished_at is null`.execute(db);
  await sql`alter table bank_sync_runs drop constraint bank_sync_runs_outcome_check`.execute(db);
  await sql`alter table bank_sync_runs add constraint bank_sync_runs_outcome_check check (outcome in ('applied', 'held', 'unchanged', 'failed'))`.execute(db);
  await sql`alter table bank_sync_runs alter column finished_at set not null`.execute(db);
}
