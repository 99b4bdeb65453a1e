import { sql, type Kysely } from 'kysely';

/**
 * The audit search by request id (issue 26: a partner quotes the `X-Request-Id` of an answer, support finds its
 * entry): an index on `request_id`, and a partial one on `last_request_id` for the aggregated entries (count > 1)
 * whose last call it names. On PostgreSQL an index made on the partitioned parent is made on each partition (and
 * on those created later); the build holds off writes to the partition it is indexing while it runs (the audit
 * writer keeps entries queued meanwhile).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`create index audit_log_request_id on audit_log (request_id)`.execute(db);
  await sql`create index audit_log_last_request_id on audit_log (last_request_id) where count > 1`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index audit_log_last_request_id`.execute(db);
  await sql`drop index audit_log_request_id`.execute(db);
}
