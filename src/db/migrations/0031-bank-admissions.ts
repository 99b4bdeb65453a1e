import { sql, type Kysely } from 'kysely';

/**
 * Admission (issue 34): new SBP head offices a registry merge or sync finds wait in `bank_admission_queue` until an
 * operator admits (publishes) them; `bank_exclusions` keeps BICs and name patterns out for good, each with its
 * reason and who set it. The default rules (non-bank credit organisations, the Interstate Bank) are written here so
 * that an operator sees, and may remove, them like any other (src/banks/admission/exclusion-rules.ts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create table bank_admission_queue (
      bic text primary key,
      registry_name text not null,
      name_en text,
      sbp_member_id text,
      first_seen_at timestamptz not null,
      last_seen_at timestamptz not null
    )`.execute(db);
  await sql`create table bank_exclusions (
      id serial primary key,
      kind text not null check (kind in ('bic', 'name')),
      value text not null,
      reason text not null,
      created_by jsonb not null,
      created_at timestamptz not null,
      unique (kind, value)
    )`.execute(db);
  const gateway = JSON.stringify({ id: 'gateway', name: 'the gateway', credential: 'system' });
  const defaults: Array<[string, string]> = [
    ['НКО', 'non-bank credit organisation (НКО): not a bank a consumer is paid into'],
    ['РНКО', 'non-bank settlement credit organisation (РНКО): not a bank a consumer is paid into'],
    ['ПНКО', 'non-bank payment credit organisation (ПНКО): not a bank a consumer is paid into'],
    ['Межгосударственный банк', 'the Interstate Bank settles between CIS central banks: no consumer accounts'],
  ];
  // An admission is a version of its own kind in the history.
  await sql`alter table bank_versions drop constraint bank_versions_source_check`.execute(db);
  await sql`alter table bank_versions add constraint bank_versions_source_check check (source in ('seed', 'add', 'remove', 'edit', 'reorder', 'import', 'replace', 'sync', 'restore', 'admit'))`.execute(db);
  for (const [value, reason] of defaults) {
    await sql`insert into bank_exclusions (kind, value, reason, created_by, created_at) values ('name', ${value}, ${reason}, ${gateway}::jsonb, now())`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`update bank_versions set source = 'add' where source = 'admit'`.execute(db);
  await sql`alter table bank_versions drop constraint bank_versions_source_check`.execute(db);
  await sql`alter table bank_versions add constraint bank_versions_source_check check (source in ('seed', 'add', 'remove', 'edit', 'reorder', 'import', 'replace', 'sync', 'restore'))`.execute(db);
  await sql`drop table bank_exclusions`.execute(db);
  await sql`drop table bank_admission_queue`.execute(db);
}
