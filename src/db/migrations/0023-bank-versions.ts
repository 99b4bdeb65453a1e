import { sql, type Kysely } from 'kysely';

/**
 * A bank directory operators can trust (issue 24).
 *
 * - `banks` gains the registry facts a Bank of Russia directory gives: `registry_name` and `sbp_participant`
 *   (null until a registry is imported); `name`, `name_en`, `sbp_member_id` and `position` stay the curated fields.
 * - `bank_versions`: every change of the list is a numbered version with who, when, the source, an optional
 *   comment, the whole list (so any version can be restored), the changes from the version before it, and the
 *   partners' body with its strong ETag, computed once when the version is made.
 * - `bank_list_head`: one row holding the current version number; a change locks it and compares it with the
 *   version it was previewed on, so two changes made on one version never both apply (on any number of instances).
 *   Version 0 is "not yet versioned": the first start makes version 1 from the list as it is (or the seed).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table banks add column registry_name text`.execute(db);
  await sql`alter table banks add column sbp_participant boolean`.execute(db);
  await sql`create table bank_versions (
      number integer primary key,
      created_at timestamptz not null default now(),
      author jsonb not null,
      source text not null check (source in ('seed', 'add', 'remove', 'edit', 'reorder', 'import', 'replace', 'sync', 'restore')),
      file_name text,
      comment text,
      restored_from integer,
      list jsonb not null,
      changes jsonb not null,
      bank_count integer not null,
      added integer not null,
      removed integer not null,
      changed integer not null,
      body text not null,
      etag text not null
    )`.execute(db);
  await sql`create index bank_versions_created_at on bank_versions (created_at)`.execute(db);
  await sql`create table bank_list_head (
      id integer primary key check (id = 1),
      version integer not null
    )`.execute(db);
  await sql`insert into bank_list_head (id, version) values (1, 0)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table bank_list_head`.execute(db);
  await sql`drop table bank_versions`.execute(db);
  await sql`alter table banks drop column sbp_participant`.execute(db);
  await sql`alter table banks drop column registry_name`.execute(db);
}
