import { sql, type Kysely } from 'kysely';

/**
 * Operators with names and roles (issue 25).
 *
 * - `operators`: one row a person; `sso_issuer`/`sso_subject` identify an operator created by single sign-on
 *   (unique together), a local operator has neither. Names are unique, as the audit trail shows them.
 * - `operator_tokens`: personal API tokens, stored as the SHA-256 of the token only (the token is 256 random
 *   bits, so an unsalted hash is enough and lets a request find its row by the hash's index); `created_by`
 *   names who issued it, so that an approval made with a token the proposer issued can be refused.
 * - `console_sessions`: the console's single sign-on sessions, one row each, found by the SHA-256 of the
 *   random id the cookie holds (a copy of the table opens no session); shared by every instance.
 * - `sso_logins`: sign-ins under way (state, nonce, PKCE verifier) between the redirect to the identity
 *   provider and its callback, which another instance may receive; kept ten minutes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table operators (
      id text primary key,
      name text not null,
      role text not null check (role in ('viewer', 'operator', 'security')),
      status text not null default 'active' check (status in ('active', 'disabled')),
      sso_issuer text,
      sso_subject text,
      created_by text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now(),
      last_used_at timestamptz
    )`.execute(db);
  await sql`create unique index operators_name on operators (lower(name))`.execute(db);
  await sql`create unique index operators_sso on operators (sso_issuer, sso_subject) where sso_subject is not null`.execute(db);
  await sql`create table operator_tokens (
      id text primary key,
      operator_id text not null references operators (id) on delete cascade,
      label text not null,
      token_hash text not null unique,
      created_by text not null,
      created_at timestamptz not null default now(),
      expires_at timestamptz not null,
      revoked_at timestamptz,
      last_used_at timestamptz
    )`.execute(db);
  await sql`create index operator_tokens_operator on operator_tokens (operator_id, created_at)`.execute(db);
  await sql`create table console_sessions (
      id_hash text primary key,
      operator_id text not null references operators (id) on delete cascade,
      created_at timestamptz not null default now(),
      last_seen_at timestamptz not null default now(),
      expires_at timestamptz not null
    )`.execute(db);
  await sql`create index console_sessions_expiry on console_sessions (expires_at)`.execute(db);
  await sql`create table sso_logins (
      state_hash text primary key,
      code_verifier text not null,
      nonce text not null,
      created_at timestamptz not null default now()
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table sso_logins`.execute(db);
  await sql`drop table console_sessions`.execute(db);
  await sql`drop table operator_tokens`.execute(db);
  await sql`drop table operators`.execute(db);
}
