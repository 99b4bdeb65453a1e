import { sql, type Kysely } from 'kysely';
import type { CredentialEndsQuery, CredentialEndsResponse } from '@partner-gateway/contract/admin-credential-ends';
import type { EndingCredential } from '@partner-gateway/contract/webhook-events';
import type { Database } from '../db/schema.js';

export const ENDING_CREDENTIALS: readonly EndingCredential[] = ['key', 'certificate', 'password'];

/** One credential's end as the query below answers it (a database row; the admin API's shape is the contract's CredentialEnd). */
export interface CredentialEndRow {
  partner_id: string;
  credential: EndingCredential;
  /** The key's kid, the certificate's thumbprint, or `previous` for the API password a rotation replaced. */
  id: string;
  ends_at: Date | string;
}

/**
 * The partner credentials that stop working after `from` and at or before `to`, as rows: a key at the end of a
 * rotation's overlap window (`expiresAt`), a certificate at its notAfter or its rotation's end (`retiresAt`),
 * whichever is first, and the API password a rotation replaced at `previous_password_until`. Ones already ended
 * are left out (they no longer work). The one query the `credential.expiring` events and the
 * `partner_gateway_partner_credentials_ending` gauge read, the same SQL on PGlite and PostgreSQL.
 *
 * @example
 * ```ts
 * const { rows } = await sql<CredentialEndRow>`${credentialsEndingBetween(now, weekLater)}`.execute(db);
 * ```
 */
export function credentialsEndingBetween(from: Date, to: Date) {
  return sql<CredentialEndRow>`
    select partner_id, credential, id, ends_at from (
      select partners.id as partner_id, 'key' as credential, key->>'kid' as id, (key->>'expiresAt')::timestamptz as ends_at
      from partners, jsonb_array_elements(partners.jwks) as key
      where partners.jwks is not null and partners.jwks_uri is null and key ? 'expiresAt'
      union all
      -- least() skips a null: a certificate no rotation retires ends at its notAfter.
      select partners.id, 'certificate', certificate->>'thumbprint', least((certificate->>'notAfter')::timestamptz, (certificate->>'retiresAt')::timestamptz)
      from partners, jsonb_array_elements(partners.certificates) as certificate
      where partners.certificates is not null
      union all
      select partners.id, 'password', 'previous', partners.previous_password_until
      from partners
      where partners.previous_password_until is not null
    ) as credentials
    where ends_at > ${from.toISOString()}::timestamptz and ends_at <= ${to.toISOString()}::timestamptz`;
}

/**
 * How many credentials of each kind end after `from` and at or before `to` (credentialsEndingBetween).
 *
 * @example
 * ```ts
 * await countCredentialsEndingBetween(db, new Date(), new Date(Date.now() + 7 * 86_400_000)); // { key: 1, certificate: 0, password: 1 }
 * ```
 */
export async function countCredentialsEndingBetween(db: Kysely<Database>, from: Date, to: Date): Promise<Record<EndingCredential, number>> {
  const { rows } = await sql<{ credential: EndingCredential; count: string | number }>`
    select credential, count(*) as count from (${credentialsEndingBetween(from, to)}) as ending group by credential`.execute(db);
  const counts = Object.fromEntries(ENDING_CREDENTIALS.map((credential) => [credential, 0])) as Record<EndingCredential, number>;
  for (const row of rows) counts[row.credential] = Number(row.count);
  return counts;
}

const DAY_MS = 86_400_000;

/**
 * The partners' credentials that end after `now` and within `query.days` (default 30), soonest first, at most
 * `query.limit` (default 200); `more` when some were left out. GET /admin/v1/credential-ends.
 *
 * @example
 * ```ts
 * const { ends } = await listCredentialEnds(db, Date.now(), { days: '7' });
 * ```
 */
export async function listCredentialEnds(db: Kysely<Database>, now: number, query: CredentialEndsQuery): Promise<CredentialEndsResponse> {
  const limit = Number(query.limit ?? 200);
  const { rows } = await sql<{ login: string; credential: EndingCredential; id: string; ends_at: Date | string }>`
    select partners.login, ending.credential, ending.id, ending.ends_at
    from (${credentialsEndingBetween(new Date(now), new Date(now + Number(query.days ?? 30) * DAY_MS))}) as ending
    join partners on partners.id = ending.partner_id
    order by ending.ends_at, partners.login, ending.id
    limit ${limit + 1}`.execute(db);
  return {
    ends: rows.slice(0, limit).map((row) => ({ partner: row.login, credential: row.credential, id: row.id, endsAt: new Date(row.ends_at).toISOString() })),
    more: rows.length > limit,
  };
}
