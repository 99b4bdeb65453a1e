import type { Kysely } from 'kysely';

/**
 * Partners who authenticate with a client certificate (issue 14, RFC 8705): the certificates a partner registered
 * (`certificates`, a JSON array of { thumbprint, subjectDn, issuerDn, notBefore, notAfter, pem }, at most 20) for
 * self_signed_tls_client_auth, and the subject DN (`subject_dn`, normalized RFC 4514) its CA-issued certificates
 * carry for tls_client_auth. Columns on `partners`, as `jwks` is, rather than a table: they are read with the partner
 * on every token request (one cached row, invalidated by the change feed like every other partner setting), are
 * few, and are replaced as a whole. Nullable columns without defaults: a catalogue change only.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('partners').addColumn('certificates', 'jsonb').execute();
  await db.schema.alterTable('partners').addColumn('subject_dn', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('partners').dropColumn('subject_dn').execute();
  await db.schema.alterTable('partners').dropColumn('certificates').execute();
}
