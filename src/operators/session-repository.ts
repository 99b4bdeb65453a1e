import { sql, type Kysely } from 'kysely';
import { column, fromColumns, toColumns, type Entity, type NewEntity } from '../db/field-map.js';
import type { Database } from '../db/schema.js';

/** A console session's stored fields (migration 0020): found by the SHA-256 of the cookie's random id, never the id. */
export const sessionFields = {
  idHash: column<string>('id_hash').immutable(),
  operatorId: column<string>('operator_id').immutable(),
  createdAt: column<Date>('created_at').defaulted(() => new Date()).immutable(),
  /** The last request seen (written at most once a minute a session by the usage recorder): the idle timeout counts from it. */
  lastSeenAt: column<Date>('last_seen_at').defaulted(() => new Date()).immutable(),
  /** The absolute timeout. */
  expiresAt: column<Date>('expires_at').immutable(),
};

export type SessionFields = typeof sessionFields;
export type StoredSession = Entity<SessionFields>;

/** Console sessions in storage. */
export interface SessionRepository {
  insert(session: NewEntity<SessionFields>): Promise<StoredSession>;
  find(idHash: string): Promise<StoredSession | undefined>;
  /** Ends a session; true when there was one. */
  delete(idHash: string): Promise<boolean>;
  /** Ends every session of an operator (disabled, or its role changed). */
  deleteFor(operatorId: string): Promise<void>;
  /** Records activity: the latest of each session's, never moving one back. */
  recordUse(uses: ReadonlyArray<{ id: string; at: Date }>): Promise<void>;
  /** Deletes sessions past their absolute timeout or idle since `idleBefore`. */
  purge(now: Date, idleBefore: Date): Promise<void>;
}

type SessionsTable = { [K in keyof SessionFields as SessionFields[K]['column']]: unknown } & { [column: string]: unknown };

export function createSessionRepository(database: Kysely<Database>): SessionRepository {
  const db = database.withTables<{ console_sessions: SessionsTable }>();
  const toSession = (row: Record<string, unknown>) => fromColumns(sessionFields, row);
  return {
    async insert(session) {
      return toSession(await db.insertInto('console_sessions').values(toColumns(sessionFields, session)).returningAll().executeTakeFirstOrThrow());
    },
    async find(idHash) {
      const row = await db.selectFrom('console_sessions').selectAll().where('id_hash', '=', idHash).executeTakeFirst();
      return row && toSession(row);
    },
    async delete(idHash) {
      return (await db.deleteFrom('console_sessions').where('id_hash', '=', idHash).returning('id_hash').execute()).length > 0;
    },
    async deleteFor(operatorId) {
      await db.deleteFrom('console_sessions').where('operator_id', '=', operatorId).execute();
    },
    async recordUse(uses) {
      if (uses.length === 0) return;
      await sql`update console_sessions set last_seen_at = greatest(console_sessions.last_seen_at, used.at)
        from jsonb_to_recordset(${JSON.stringify(uses)}::jsonb) as used(id text, at timestamptz)
        where console_sessions.id_hash = used.id`.execute(db);
    },
    async purge(now, idleBefore) {
      await db.deleteFrom('console_sessions').where((eb) => eb.or([eb('expires_at', '<=', now), eb('last_seen_at', '<', idleBefore)])).execute();
    },
  };
}
