import { sql, type Kysely } from 'kysely';

/**
 * Partners who authenticate with their own key (issue 13): how each may authenticate (`auth_methods`, a JSON
 * array; every existing partner keeps `["password"]`, so nothing changes for it), whether its tokens must be
 * bound to its key (`require_bound_tokens`), and its public keys: registered ones (`jwks`, the validated
 * public JWKs) or the URL where it publishes them (`jwks_uri`, with when a fetch last succeeded). Adding
 * columns with constant defaults is a catalogue change in PostgreSQL 11+: no table rewrite, no long lock.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .alterTable('partners')
    .addColumn('auth_methods', 'jsonb', (col) => col.notNull().defaultTo(sql`'["password"]'::jsonb`))
    .execute();
  await db.schema.alterTable('partners').addColumn('require_bound_tokens', 'boolean', (col) => col.notNull().defaultTo(false)).execute();
  await db.schema.alterTable('partners').addColumn('jwks', 'jsonb').execute();
  await db.schema.alterTable('partners').addColumn('jwks_uri', 'text').execute();
  await db.schema.alterTable('partners').addColumn('jwks_fetched_at', 'timestamptz').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const column of ['jwks_fetched_at', 'jwks_uri', 'jwks', 'require_bound_tokens', 'auth_methods']) {
    await db.schema.alterTable('partners').dropColumn(column).execute();
  }
}
