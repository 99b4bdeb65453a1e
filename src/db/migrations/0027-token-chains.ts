import { sql, type Kysely } from 'kysely';

/**
 * Credential chains (issue 33, finding 1): a personal token remembers every operator through whose credential it
 * was created (`issued_through`, a JSON array of operator ids, the root first), so that maker-checker can refuse
 * an approval by anyone behind the proposer, however many tokens were created in between. Before this a token
 * only named who created it directly, and a token created with a token created for a colleague named the
 * colleague. The audit trail keeps the chain beside the operator and the approver it names
 * (`operator_through`, `approver_through`), so an auditor sees who stood behind a chained token.
 *
 * Tokens made before this migration did not record their chain. Each is given the most it can be proven to owe:
 * its direct creator when that was another operator; for a token an operator created for itself, every other
 * operator who had created a token for it that was still live at that moment (the chain may have gone through
 * one of them). An honest self-made token may so be counted as a colleague's too: an approval it makes of that
 * colleague's proposal is refused, and a new token, made from the operator's own credential, has no chain.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table audit_log add column operator_through jsonb, add column approver_through jsonb`.execute(db);
  await sql`alter table operator_tokens add column issued_through jsonb not null default '[]'::jsonb`.execute(db);
  await sql`update operator_tokens set issued_through = jsonb_build_array(created_by)
    where created_by <> 'bootstrap' and created_by <> operator_id`.execute(db);
  await sql`update operator_tokens made set issued_through = coalesce((
      select jsonb_agg(distinct other.created_by) from operator_tokens other
      where other.operator_id = made.operator_id and other.id <> made.id
        and other.created_by <> 'bootstrap' and other.created_by <> made.operator_id
        and other.created_at <= made.created_at and other.expires_at > made.created_at
        and (other.revoked_at is null or other.revoked_at > made.created_at)
    ), '[]'::jsonb)
    where made.created_by = made.operator_id`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table audit_log drop column operator_through, drop column approver_through`.execute(db);
  await sql`alter table operator_tokens drop column issued_through`.execute(db);
}
