import { sql, type Kysely } from 'kysely';

/**
 * Token lifecycle, sealed keys, brute-force counters and the audit trail. Partners get a token generation
 * (bumped on block, delete or password change, which revokes every token issued before); each login starts
 * a token family (revoked by logout or refresh-token reuse) whose refresh tokens are stored only as hashes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('partners').addColumn('token_generation', 'integer', (col) => col.notNull().defaultTo(0)).execute();

  await db.schema
    .createTable('token_families')
    .addColumn('id', 'uuid', (col) => col.primaryKey())
    .addColumn('partner_id', 'uuid', (col) => col.notNull().references('partners.id').onDelete('cascade'))
    .addColumn('generation', 'integer', (col) => col.notNull())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (col) => col.notNull())
    .addColumn('revoked_at', 'timestamptz')
    .addColumn('revoked_reason', 'text')
    .execute();
  await db.schema.createIndex('token_families_partner').on('token_families').column('partner_id').execute();

  await db.schema
    .createTable('refresh_tokens')
    .addColumn('token_hash', 'text', (col) => col.primaryKey())
    .addColumn('family_id', 'uuid', (col) => col.notNull().references('token_families.id').onDelete('cascade'))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('expires_at', 'timestamptz', (col) => col.notNull())
    .addColumn('used_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('refresh_tokens_family').on('refresh_tokens').column('family_id').execute();

  await db.schema.alterTable('crypto_keys').addColumn('private_jwk_sealed', 'text').execute();
  await db.schema.alterTable('crypto_keys').alterColumn('private_jwk', (col) => col.dropNotNull()).execute();

  await db.schema
    .createTable('auth_throttle')
    .addColumn('key', 'text', (col) => col.primaryKey())
    .addColumn('failures', 'integer', (col) => col.notNull())
    .addColumn('window_started_at', 'timestamptz', (col) => col.notNull())
    .addColumn('lockouts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('locked_until', 'timestamptz')
    .addColumn('last_failure_at', 'timestamptz', (col) => col.notNull())
    .execute();

  await db.schema
    .createTable('audit_log')
    .addColumn('id', 'bigserial', (col) => col.primaryKey())
    .addColumn('at', 'timestamptz', (col) => col.notNull())
    .addColumn('action', 'text', (col) => col.notNull())
    .addColumn('outcome', 'text', (col) => col.notNull())
    .addColumn('status', 'integer')
    .addColumn('partner', 'text')
    .addColumn('client_address', 'text')
    .addColumn('reason', 'text')
    .addColumn('request_id', 'text')
    .addColumn('details', 'jsonb')
    .execute();
  await db.schema.createIndex('audit_log_at').on('audit_log').column('at').execute();
  await db.schema.createIndex('audit_log_partner').on('audit_log').columns(['partner', 'id']).execute();
  // Append-only: the application never updates or deletes audit rows, and the database refuses to.
  await sql`create function audit_log_append_only() returns trigger language plpgsql as $$
    begin raise exception 'audit_log is append-only'; end $$`.execute(db);
  await sql`create trigger audit_log_no_change before update or delete on audit_log
    for each row execute function audit_log_append_only()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop trigger if exists audit_log_no_change on audit_log`.execute(db);
  await sql`drop function if exists audit_log_append_only()`.execute(db);
  for (const table of ['audit_log', 'auth_throttle', 'refresh_tokens', 'token_families']) await db.schema.dropTable(table).execute();
  await db.schema.alterTable('crypto_keys').dropColumn('private_jwk_sealed').execute();
  await db.schema.alterTable('partners').dropColumn('token_generation').execute();
}
