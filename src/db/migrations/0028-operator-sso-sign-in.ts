import { sql, type Kysely } from 'kysely';

/**
 * Single sign-on as the source of truth for the operators it created (issue 33, finding 4).
 *
 * - `last_sso_sign_in_at`: the operator's last sign-in through the identity provider. An SSO operator's personal
 *   token is refused once it is older than OIDC_TOKEN_SIGN_IN_MAX_AGE, so that a person removed at the identity
 *   provider cannot act on a token for the rest of its year. The SSO operators that exist already count from this
 *   migration (they have each signed in, but when is not known): each has the full window to sign in again.
 * - `sso_disabled_at`: when single sign-on disabled the operator (its subject came back with no mapped role). Only
 *   such an operator is enabled again by a later sign-in with a mapped role; one a security operator disabled stays
 *   disabled.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table operators add column last_sso_sign_in_at timestamptz`.execute(db);
  await sql`alter table operators add column sso_disabled_at timestamptz`.execute(db);
  await sql`update operators set last_sso_sign_in_at = now() where sso_subject is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table operators drop column sso_disabled_at`.execute(db);
  await sql`alter table operators drop column last_sso_sign_in_at`.execute(db);
}
