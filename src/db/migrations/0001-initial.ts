import { sql, type Kysely } from 'kysely';

/** Partners, banks, keys and the JWE replay cache: the whole schema of the core gateway. */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('partners')
    .addColumn('id', 'uuid', (col) => col.primaryKey())
    .addColumn('login', 'text', (col) => col.notNull().unique())
    .addColumn('password_hash', 'text', (col) => col.notNull())
    .addColumn('status', 'text', (col) => col.notNull().check(sql`status in ('active', 'blocked')`))
    .addColumn('ip_allowlist', 'jsonb', (col) => col.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('reward_types', 'jsonb', (col) => col.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('banks')
    .addColumn('bic', 'text', (col) => col.primaryKey().check(sql`bic ~ '^04[0-9]{7}$'`))
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('name_en', 'text')
    .addColumn('sbp_member_id', 'text')
    .addColumn('position', 'integer', (col) => col.notNull())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('crypto_keys')
    .addColumn('id', 'serial', (col) => col.primaryKey())
    .addColumn('kid', 'text', (col) => col.notNull().unique())
    .addColumn('use', 'text', (col) => col.notNull().check(sql`use in ('sig', 'enc')`))
    .addColumn('alg', 'text', (col) => col.notNull())
    .addColumn('public_jwk', 'jsonb', (col) => col.notNull())
    .addColumn('private_jwk', 'jsonb', (col) => col.notNull())
    .addColumn('created_at', 'timestamptz', (col) => col.notNull().defaultTo(sql`now()`))
    .addColumn('retired_at', 'timestamptz')
    .execute();

  await db.schema
    .createTable('jwe_replay')
    .addColumn('jti', 'text', (col) => col.primaryKey())
    .addColumn('expires_at', 'timestamptz', (col) => col.notNull())
    .execute();
  await db.schema.createIndex('jwe_replay_expires_at').on('jwe_replay').column('expires_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['jwe_replay', 'crypto_keys', 'banks', 'partners']) {
    await db.schema.dropTable(table).execute();
  }
}
