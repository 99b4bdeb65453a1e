import { sql, type Kysely } from 'kysely';
import { column, fromColumns, json, toColumns, type Entity, type NewEntity } from '../db/field-map.js';
import type { Database } from '../db/schema.js';

/** A personal token's stored fields (migration 0020): never the token, only its SHA-256. */
export const operatorTokenFields = {
  id: column<string>('id').immutable(),
  operatorId: column<string>('operator_id').immutable(),
  label: column<string>('label').immutable(),
  /** SHA-256 of the token, hex. */
  tokenHash: column<string>('token_hash').immutable(),
  /** Who issued it: an operator id, or `bootstrap`. */
  createdBy: column<string>('created_by').immutable(),
  /** Every other operator through whose credential it was created, the root first (migration 0027). */
  issuedThrough: json<string[]>('issued_through').immutable(),
  createdAt: column<Date>('created_at').defaulted(() => new Date()).immutable(),
  expiresAt: column<Date>('expires_at').immutable(),
  revokedAt: column<Date | null>('revoked_at').defaulted(null),
  /** Written in batches by the usage recorder. */
  lastUsedAt: column<Date | null>('last_used_at').defaulted(null).immutable(),
};

export type OperatorTokenFields = typeof operatorTokenFields;
export type OperatorToken = Entity<OperatorTokenFields>;

/** Personal tokens in storage. */
export interface OperatorTokenRepository {
  insert(token: NewEntity<OperatorTokenFields>): Promise<OperatorToken>;
  findByHash(tokenHash: string): Promise<OperatorToken | undefined>;
  listFor(operatorId: string): Promise<OperatorToken[]>;
  /** Revokes one of the operator's tokens at `at`; the token as it now is, or undefined when it has no such token. Revoking twice keeps the first time. */
  revoke(operatorId: string, tokenId: string, at: Date): Promise<OperatorToken | undefined>;
  /** Revokes every token of the operator not yet revoked, at `at`; how many it revoked. */
  revokeAllFor(operatorId: string, at: Date): Promise<number>;
  /** Records last uses: the latest of each token's, never moving one back. */
  recordUse(uses: ReadonlyArray<{ id: string; at: Date }>): Promise<void>;
}

type TokensTable = { [K in keyof OperatorTokenFields as OperatorTokenFields[K]['column']]: unknown } & { [column: string]: unknown };

export function createOperatorTokenRepository(database: Kysely<Database>): OperatorTokenRepository {
  const db = database.withTables<{ operator_tokens: TokensTable }>();
  const toToken = (row: Record<string, unknown>) => fromColumns(operatorTokenFields, row);
  return {
    async insert(token) {
      return toToken(await db.insertInto('operator_tokens').values(toColumns(operatorTokenFields, token)).returningAll().executeTakeFirstOrThrow());
    },
    async findByHash(tokenHash) {
      const row = await db.selectFrom('operator_tokens').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
      return row && toToken(row);
    },
    async listFor(operatorId) {
      const rows = await db.selectFrom('operator_tokens').selectAll().where('operator_id', '=', operatorId).orderBy('created_at', 'desc').execute();
      return rows.map(toToken);
    },
    async revoke(operatorId, tokenId, at) {
      const row = await db
        .updateTable('operator_tokens')
        .set({ revoked_at: sql`coalesce(revoked_at, ${at})` })
        .where('id', '=', tokenId)
        .where('operator_id', '=', operatorId)
        .returningAll()
        .executeTakeFirst();
      return row && toToken(row);
    },
    async revokeAllFor(operatorId, at) {
      const rows = await db.updateTable('operator_tokens').set({ revoked_at: at }).where('operator_id', '=', operatorId).where('revoked_at', 'is', null).returning('id').execute();
      return rows.length;
    },
    async recordUse(uses) {
      if (uses.length === 0) return;
      await sql`update operator_tokens set last_used_at = greatest(coalesce(operator_tokens.last_used_at, used.at), used.at)
        from jsonb_to_recordset(${JSON.stringify(uses)}::jsonb) as used(id text, at timestamptz)
        where operator_tokens.id = used.id`.execute(db);
    },
  };
}
