import { sql, type Kysely } from 'kysely';

/**
 * The audit table's day partitions on PostgreSQL: `audit_log_pYYYYMMDD` holds the entries of one UTC day,
 * [00:00, next 00:00), and `audit_log_default` catches anything no partition covers, so that a writer is
 * never refused for want of a partition (it stays empty while partitions are made ahead).
 */
export const DAY_MS = 86_400_000;

/** The setting under which the append-only trigger lets a DELETE through: retention and the legacy move only. */
export const RETENTION_SETTING = 'partner_gateway.audit_retention';

/** The first instant of the UTC day holding `time`. */
export function dayStart(time: number): number {
  return Math.floor(time / DAY_MS) * DAY_MS;
}

export function partitionName(day: number): string {
  return `audit_log_p${new Date(day).toISOString().slice(0, 10).replaceAll('-', '')}`;
}

/** The day a partition name stands for, or undefined for the default partition and strangers. */
export function partitionDay(name: string): number | undefined {
  const match = /^audit_log_p(\d{4})(\d{2})(\d{2})$/.exec(name);
  return match ? Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) : undefined;
}

/** True on the embedded PGlite, whose server reports a wasm32 build: its audit table is not partitioned. */
export async function isEmbedded(db: Kysely<any>): Promise<boolean> {
  const { rows } = await sql<{ version: string }>`select version() as version`.execute(db);
  return rows[0]?.version.includes('wasm32') ?? false;
}

/** The audit table's day partitions, by name (the default partition excluded). */
export async function listPartitions(db: Kysely<any>): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`select c.relname as name from pg_inherits i join pg_class c on c.oid = i.inhrelid
    where i.inhparent = to_regclass('audit_log') order by c.relname`.execute(db);
  return rows.map((row) => row.name).filter((name) => partitionDay(name) !== undefined);
}

/**
 * Creates the partition of `day` unless it exists. It is created apart and then attached, which locks the
 * parent only in SHARE UPDATE EXCLUSIVE mode (writers go on) where `create table ... partition of` would
 * block them; entries of that day that landed in the default partition meanwhile are moved into it first.
 * Call inside a transaction.
 */
export async function createPartition(db: Kysely<any>, day: number): Promise<boolean> {
  const name = partitionName(day);
  const exists = await sql<{ found: string | null }>`select to_regclass(${name}) as found`.execute(db);
  if (exists.rows[0]?.found) return false;
  const from = new Date(day).toISOString();
  const to = new Date(day + DAY_MS).toISOString();
  // The parent first, then the default partition: the order a writer takes them in, so the two never deadlock.
  await sql`lock table audit_log in share update exclusive mode`.execute(db);
  await sql`create table ${sql.id(name)} (like audit_log including defaults)`.execute(db);
  await sql`set local ${sql.raw(RETENTION_SETTING)} = 'on'`.execute(db);
  await sql`with moved as (delete from audit_log_default where at >= ${from}::timestamptz and at < ${to}::timestamptz returning *)
    insert into ${sql.id(name)} select * from moved`.execute(db);
  await sql`set local ${sql.raw(RETENTION_SETTING)} = 'off'`.execute(db);
  await sql`alter table audit_log attach partition ${sql.id(name)} for values from (${sql.lit(from)}) to (${sql.lit(to)})`.execute(db);
  return true;
}
