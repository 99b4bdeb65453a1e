import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

/**
 * How many registered partner certificates have their notAfter before `before` (already expired ones included:
 * they need replacing as much; ones a rotation is retiring left out: they are being replaced), counted in the database from the `certificates` column (migration 0013), the same
 * SQL on PGlite and PostgreSQL. One small query a scrape: partners hold at most 20 certificates each.
 *
 * @example
 * ```ts
 * await countCertificatesExpiringBefore(db, new Date(Date.now() + 30 * 86_400_000)); // 2
 * ```
 */
export async function countCertificatesExpiringBefore(db: Kysely<Database>, before: Date): Promise<number> {
  const { rows } = await sql<{ count: string | number }>`
    select count(*) as count
    from partners, jsonb_array_elements(partners.certificates) as certificate
    where partners.certificates is not null and not (certificate ? 'retiresAt')
      and (certificate->>'notAfter')::timestamptz <= ${before.toISOString()}::timestamptz
  `.execute(db);
  return Number(rows[0]?.count ?? 0);
}
