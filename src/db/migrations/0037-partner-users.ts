import { sql, type Kysely } from 'kysely';

/**
 * A partner's own people and the portal they sign in to (docs/portal-security.md):
 *
 * - `partner_users`: a person at a partner, with a role (`partner-admin` or `partner-developer`); a name unique
 *   within the partner. Deleting the partner deletes its people.
 * - `partner_passkeys`: a person's WebAuthn credentials (the public key only; the private key never leaves the
 *   authenticator), found by the credential id the browser presents; the signature counter a cloned
 *   authenticator would give away.
 * - `partner_invitations`: single-use links, found by the SHA-256 of their secret (never the secret); `user_id`
 *   set when the link recovers a registered person; `used_at` once accepted.
 * - `portal_challenges`: the WebAuthn challenges already answered, until they expire: a challenge is signed, not
 *   stored, when given out (an unauthenticated request writes nothing), and spent here once, on whichever instance.
 * - `portal_sessions`: the portal's sessions, found by the SHA-256 of the cookie's random id, with idle and
 *   absolute timeouts (the CSRF token the session's changes carry is derived from the id, as the console's).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table partner_users (
      id text primary key,
      partner_id uuid not null references partners (id) on delete cascade,
      name text not null,
      role text not null,
      created_by text not null,
      created_at timestamptz not null default now(),
      last_sign_in_at timestamptz
    )`.execute(db);
  await sql`create unique index partner_users_name on partner_users (partner_id, lower(name))`.execute(db);
  await sql`create table partner_passkeys (
      id text primary key,
      user_id text not null references partner_users (id) on delete cascade,
      public_key bytea not null,
      counter bigint not null default 0,
      transports jsonb not null default '[]',
      created_at timestamptz not null default now(),
      last_used_at timestamptz
    )`.execute(db);
  await sql`create index partner_passkeys_user on partner_passkeys (user_id)`.execute(db);
  await sql`create table partner_invitations (
      id text primary key,
      token_hash text not null unique,
      partner_id uuid not null references partners (id) on delete cascade,
      user_id text references partner_users (id) on delete cascade,
      name text not null,
      role text not null,
      created_by text not null,
      created_at timestamptz not null default now(),
      expires_at timestamptz not null,
      used_at timestamptz
    )`.execute(db);
  await sql`create index partner_invitations_partner on partner_invitations (partner_id)`.execute(db);
  await sql`create table portal_challenges (
      challenge text primary key,
      expires_at timestamptz not null
    )`.execute(db);
  await sql`create table portal_sessions (
      id_hash text primary key,
      user_id text not null references partner_users (id) on delete cascade,
      created_at timestamptz not null default now(),
      last_seen_at timestamptz not null default now(),
      expires_at timestamptz not null
    )`.execute(db);
  await sql`create index portal_sessions_user on portal_sessions (user_id)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['portal_sessions', 'portal_challenges', 'partner_invitations', 'partner_passkeys', 'partner_users']) {
    await sql`drop table ${sql.table(table)}`.execute(db);
  }
}
