import type { Kysely } from 'kysely';
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
  /** `createdAt` is the gateway's clock (the callback's ten minutes are counted on it, not the database's). */
  insert(stateHash: string, login: PendingSsoLogin, clientAddress: string): Promise<void>;
  /** Sign-ins begun since `since`: of `clientAddress`, and of every address (each counted up to `limit`). */
  countSince(since: Date, clientAddress: string, limit: number): Promise<{ address: number; total: number }>;
  /** The sign-in, deleted as it is read; undefined when unknown or already taken. */
  take(stateHash: string): Promise<PendingSsoLogin | undefined>;
  /** Forgets sign-ins begun before `before` (never finished). */
  purge(before: Date): Promise<void>;
}

type SsoLoginsTable = { state_hash: string; code_verifier: string; nonce: string; created_at: Date; client_address: string | null };

export function createSsoLoginRepository(database: Kysely<Database>): SsoLoginRepository {
  const db = database.withTables<{ sso_logins: SsoLoginsTable }>();
  return {
    async insert(stateHash, { codeVerifier, nonce, createdAt }, clientAddress) {
      await db.insertInto('sso_logins').values({ state_hash: stateHash, code_verifier: codeVerifier, nonce, created_at: createdAt, client_address: clientAddress }).execute();
    },
    async countSince(since, clientAddress, limit) {
      // Counted over at most `limit` rows each: past the bound the exact number does not matter.
      const recent = db.selectFrom('sso_logins').select('state_hash').where('created_at', '>=', since);
      const [address, total] = await Promise.all([
        db.selectFrom(recent.where('client_address', '=', clientAddress).limit(limit).as('mine')).select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
        db.selectFrom(recent.limit(limit).as('every')).select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow(),
      ]);
      return { address: Number(address.n), total: Number(total.n) };
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
