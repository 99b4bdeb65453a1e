import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

/** A single sign-on under way: what the callback needs to finish it (migration 0020). */
export interface PendingSsoLogin {
  codeVerifier: string;
  nonce: string;
  createdAt: Date;
}

/**
 * Sign-ins between the redirect to the identity provider and its callback, found by the SHA-256 of their
 * `state` (which the browser's flow cookie holds) and taken once: a callback replayed finds nothing.
 */
export interface SsoLoginRepository {
  /**
   * Stores a sign-in unless the bounds are reached: sign-ins begun since `bounds.since` number `bounds.perAddress`
   * of `clientAddress` already ('address'), or `bounds.total` of every address ('total'). Counted and stored under a
   * lock of the table, so that starts racing each other cannot pass a bound together. `createdAt` is the gateway's
   * clock (the callback's ten minutes are counted on it, not the database's).
   */
  insertWithin(stateHash: string, login: PendingSsoLogin, clientAddress: string, bounds: { since: Date; perAddress: number; total: number }): Promise<'stored' | 'address' | 'total'>;
  /** The sign-in, deleted as it is read; undefined when unknown or already taken. */
  take(stateHash: string): Promise<PendingSsoLogin | undefined>;
  /** Forgets sign-ins begun before `before` (never finished). */
  purge(before: Date): Promise<void>;
}

type SsoLoginsTable = { state_hash: string; code_verifier: string; nonce: string; created_at: Date; client_address: string | null };

export function createSsoLoginRepository(database: Kysely<Database>): SsoLoginRepository {
  const db = database.withTables<{ sso_logins: SsoLoginsTable }>();
  return {
    async insertWithin(stateHash, { codeVerifier, nonce, createdAt }, clientAddress, bounds) {
      return db.transaction().execute(async (trx) => {
        // Self-conflicting: one start at a time counts and inserts; reads and the callback's take only wait for it.
        await sql`lock table sso_logins in share row exclusive mode`.execute(trx);
        // Counted over at most the bound's rows each: past it the exact number does not matter.
        const recent = trx.selectFrom('sso_logins').select('state_hash').where('created_at', '>=', bounds.since);
        const mine = await trx.selectFrom(recent.where('client_address', '=', clientAddress).limit(bounds.perAddress).as('mine')).select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
        if (Number(mine.n) >= bounds.perAddress) return 'address';
        const every = await trx.selectFrom(recent.limit(bounds.total).as('every')).select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
        if (Number(every.n) >= bounds.total) return 'total';
        await trx.insertInto('sso_logins').values({ state_hash: stateHash, code_verifier: codeVerifier, nonce, created_at: createdAt, client_address: clientAddress }).execute();
        return 'stored';
      });
    },
    async take(stateHash) {
      const row = await db.deleteFrom('sso_logins').where('state_hash', '=', stateHash).returningAll().executeTakeFirst();
      return row && { codeVerifier: row.code_verifier, nonce: row.nonce, createdAt: new Date(row.created_at) };
    },
    async purge(before) {
      await db.deleteFrom('sso_logins').where('created_at', '<', before).execute();
    },
  };
}
