import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

/**
 * How many registered partner keys end (a rotation's overlap window, `expiresAt`) after `from` and at or before
 * `to`: the keys about to stop working. Keys already ended are not counted (they no longer work and are dropped
 * at the next rotation). Counted in the database from the `jwks` column, the same SQL on PGlite and PostgreSQL.
 *
 * @example
 * ```ts
 * await countKeysEndingBetween(db, new Date(), new Date(Date.now() + 7 * 86_400_000)); // 1
 * ```
 */
export async function countKeysEndingBetween(db: Kysely<Database>, from: Date, to: Date): Promise<number> {
  const { rows } = await sql<{ count: string | number }>`select count(*) as count from (${keysEndingBetween(from, to)}) as ending`.execute(db);
  return Number(rows[0]?.count ?? 0);
}

/**
 * The registered keys that end after `from` and at or before `to`, as rows (`partner_id`, `kid`, `expires_at`):
 * the one query both the count above and the `credential.expiring` events read.
 */
export function keysEndingBetween(from: Date, to: Date) {
  return sql<{ partner_id: string; kid: string; expires_at: string }>`
    select partners.id as partner_id, key->>'kid' as kid, key->>'expiresAt' as expires_at
    from partners, jsonb_array_elements(partners.jwks) as key
    where partners.jwks is not null and partners.jwks_uri is null and key ? 'expiresAt'
      and (key->>'expiresAt')::timestamptz > ${from.toISOString()}::timestamptz
      and (key->>'expiresAt')::timestamptz <= ${to.toISOString()}::timestamptz`;
}
