import type { Kysely } from 'kysely';

/**
 * DPoP-bound sessions (issue 13): a token family started with a DPoP proof remembers the thumbprint of the
 * proof's key (`jkt`), so that its refreshes keep the binding (each refresh must be proven by the same key).
 * Null for bearer families: every existing family stays a bearer family. A nullable column without default
 * is a catalogue change only.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('token_families').addColumn('jkt', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('token_families').dropColumn('jkt').execute();
}
