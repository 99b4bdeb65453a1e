/**
 * Whether `error` is PostgreSQL's "schema … does not exist", or "relation "<schema>.<table>" does not exist", about
 * a schema other than `ours`. Kysely's migrator looks for its migration table through every schema's tables
 * (pg_get_serial_sequence on each), so a schema or a table that someone else drops meanwhile (another
 * application, a test suite ending, the audit retention job dropping `audit_log_legacy`) fails that read; it says
 * nothing about our schema, and the run is tried again.
 *
 * @example
 * ```ts
 * otherSchemaVanished(new Error('relation "burst_3a6f.audit_log_legacy" does not exist'), 'public'); // true
 * ```
 */
export function otherSchemaVanished(error: unknown, ours: string | undefined): boolean {
  const message = error instanceof Error ? error.message : '';
  const vanished = /schema "([^"]+)" does not exist/.exec(message)?.[1] ?? /relation "([^".]+)\.[^"]+" does not exist/.exec(message)?.[1];
  return vanished !== undefined && vanished !== ours;
}
