import { sql, type Kysely } from 'kysely';

/**
 * Maker-checker (issue 25).
 *
 * - `approval_settings`: the actions that need a second operator's approval, one row each (none by default,
 *   so existing deployments and scripts keep working), with who set it and when.
 * - `proposals`: changes proposed and waiting for (or given) a decision: the request as made, the preview it
 *   was shown with and the fingerprint of what the preview was computed from (`base`), so that approving
 *   applies exactly the previewed change or refuses it when the base has moved. Who proposed and decided is
 *   kept by id, name and credential, as the audit trail keeps it, so a renamed operator's history stays true.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table approval_settings (
      action text primary key,
      updated_by text not null,
      updated_at timestamptz not null default now()
    )`.execute(db);
  await sql`create table proposals (
      id text primary key,
      action text not null,
      status text not null default 'pending' check (status in ('pending', 'approved', 'rejected', 'expired', 'conflict')),
      target text not null,
      request jsonb not null,
      preview jsonb not null,
      base text not null,
      proposed_by jsonb not null,
      proposed_at timestamptz not null,
      expires_at timestamptz not null,
      decided_by jsonb,
      decided_at timestamptz,
      reason text,
      result jsonb
    )`.execute(db);
  await sql`create index proposals_status on proposals (status, proposed_at)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table proposals`.execute(db);
  await sql`drop table approval_settings`.execute(db);
}
