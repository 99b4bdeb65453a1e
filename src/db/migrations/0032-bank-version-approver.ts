import { sql, type Kysely } from 'kysely';

/**
 * History names proposer and approver as the audit does (issue 33): a bank version applied by approving a
 * proposal records its proposer as `author` and the operator who approved it as `approver` (null for a change
 * made at once, by the sync or by the gateway). Before this the version named the approver as its author.
 *
 * Versions made on approval before this migration are corrected from the audit trail where it still holds the
 * approval's entry (a bank action with an approver, whose details name the version): the entry's operator is
 * the proposer, its approver the approver. Versions whose entry has been purged keep the author they had.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table bank_versions add column approver jsonb`.execute(db);
  await sql`update bank_versions v set
      author = jsonb_strip_nulls(jsonb_build_object('id', a.operator_id, 'name', a.operator_name, 'credential', a.operator_credential, 'issuedThrough', a.operator_through)),
      approver = jsonb_strip_nulls(jsonb_build_object('id', a.approver_id, 'name', a.approver_name, 'credential', a.approver_credential, 'issuedThrough', a.approver_through))
    from audit_log a
    where a.approver_id is not null and a.operator_id is not null and a.outcome = 'success'
      and a.action in ('banks.replace', 'banks.restore', 'banks.import', 'bank.add', 'bank.edit', 'bank.remove')
      and a.details->>'version' = v.number::text`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table bank_versions drop column approver`.execute(db);
}
