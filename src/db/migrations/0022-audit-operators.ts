import { sql, type Kysely } from 'kysely';

/**
 * An audit trail that says who (issue 25): each admin entry names the operator (`operator_id`, `operator_name`,
 * `operator_credential`: token, sso or bootstrap) and, for a change made by approving a proposal, the approver.
 * Nullable columns without defaults: a catalogue change only, on the partitioned table (PostgreSQL, propagated
 * to every partition) as on the embedded one; older entries read as made by nobody in particular.
 *
 * The search by operator reads `(operator_id, id)`; partner calls leave it null. On PostgreSQL an index made on
 * the partitioned parent is made on each partition (and on those created later).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table audit_log
      add column operator_id text,
      add column operator_name text,
      add column operator_credential text,
      add column approver_id text,
      add column approver_name text,
      add column approver_credential text`.execute(db);
  await sql`create index audit_log_operator on audit_log (operator_id, id)`.execute(db);
  await sql`create index audit_log_approver on audit_log (approver_id, id) where approver_id is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index audit_log_approver`.execute(db);
  await sql`drop index audit_log_operator`.execute(db);
  await sql`alter table audit_log
      drop column operator_id, drop column operator_name, drop column operator_credential,
      drop column approver_id, drop column approver_name, drop column approver_credential`.execute(db);
}
