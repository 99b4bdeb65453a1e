import { sql, type Kysely, type Selectable } from 'kysely';
import type { CryptoKeysTable, Database } from '../db/schema.js';
import type { KeySealer } from './master-key.js';

export type KeyUse = 'sig' | 'enc';

/** A key pair as the key store sees it: both halves as JWKs, the private one already opened. */
export interface StoredKey {
  kid: string;
  use: KeyUse;
  alg: string;
  publicJwk: Record<string, unknown>;
  privateJwk: Record<string, unknown>;
  createdAt: Date;
  /** When a newer key replaced it; null while it is the active key of its use. */
  retiredAt: Date | null;
}

export type NewKey = Pick<StoredKey, 'kid' | 'use' | 'alg' | 'publicJwk' | 'privateJwk'>;

export interface KeyRepository {
  /** Active keys and keys retired after `retiredAfter[use]`, oldest first. */
  listUsable(retiredAfter: Record<KeyUse, Date>): Promise<StoredKey[]>;
  /**
   * Makes sure one active key exists for each `use` in `wanted`, generating the missing ones, and seals any
   * private key still stored in clear. Runs under an advisory lock so that instances starting together
   * agree on one key per use.
   */
  ensureActive(wanted: Array<{ use: KeyUse; generate: () => Promise<NewKey> }>): Promise<void>;
  /** Retires the active key of `key.use` and makes `key` active, atomically. */
  rotate(key: NewKey): Promise<void>;
  /**
   * Drops key `kid` for good (its row is deleted: a compromised private half is not worth keeping). When it is
   * the active key of its use, `replacement()` becomes active in the same transaction, first. Returns the key
   * as it was, or undefined when there is no such key.
   */
  revoke(kid: string, replacement: (use: KeyUse) => Promise<NewKey>): Promise<StoredKey | undefined>;
}

/** An arbitrary constant naming the advisory lock that serializes key changes across instances. */
const KEY_LOCK = 7_210_001;

export function createKeyRepository(db: Kysely<Database>, sealer: KeySealer): KeyRepository {
  const insert = (trx: Kysely<Database>, key: NewKey) =>
    trx
      .insertInto('crypto_keys')
      .values({
        kid: key.kid,
        use: key.use,
        alg: key.alg,
        public_jwk: JSON.stringify(key.publicJwk),
        private_jwk: null,
        private_jwk_sealed: sealer.seal(key.kid, key.privateJwk),
      })
      .execute();

  return {
    async listUsable(retiredAfter) {
      const rows = await db
        .selectFrom('crypto_keys')
        .selectAll()
        .where((eb) =>
          eb.or([
            eb('retired_at', 'is', null),
            eb.and([eb('use', '=', 'sig'), eb('retired_at', '>', retiredAfter.sig)]),
            eb.and([eb('use', '=', 'enc'), eb('retired_at', '>', retiredAfter.enc)]),
          ]),
        )
        .orderBy('id')
        .execute();
      return rows.map((row) => toStoredKey(row, sealer));
    },
    async ensureActive(wanted) {
      await db.transaction().execute(async (trx) => {
        await sql`select pg_advisory_xact_lock(${KEY_LOCK})`.execute(trx);
        const legacy = await trx.selectFrom('crypto_keys').select(['kid', 'private_jwk']).where('private_jwk', 'is not', null).execute();
        for (const row of legacy) {
          await trx
            .updateTable('crypto_keys')
            .set({ private_jwk_sealed: sealer.seal(row.kid, row.private_jwk!), private_jwk: null })
            .where('kid', '=', row.kid)
            .execute();
        }
        const present = await trx.selectFrom('crypto_keys').select('use').where('retired_at', 'is', null).execute();
        for (const { use, generate } of wanted) {
          if (!present.some((row) => row.use === use)) await insert(trx, await generate());
        }
      });
    },
    async revoke(kid, replacement) {
      return db.transaction().execute(async (trx) => {
        await sql`select pg_advisory_xact_lock(${KEY_LOCK})`.execute(trx);
        const row = await trx.selectFrom('crypto_keys').selectAll().where('kid', '=', kid).executeTakeFirst();
        if (!row) return undefined;
        if (row.retired_at === null) await insert(trx, await replacement(row.use));
        await trx.deleteFrom('crypto_keys').where('kid', '=', kid).execute();
        return toStoredKey(row, sealer);
      });
    },
    async rotate(key) {
      await db.transaction().execute(async (trx) => {
        await sql`select pg_advisory_xact_lock(${KEY_LOCK})`.execute(trx);
        await trx.updateTable('crypto_keys').set({ retired_at: new Date() }).where('use', '=', key.use).where('retired_at', 'is', null).execute();
        await insert(trx, key);
      });
    },
  };
}

function toStoredKey(row: Selectable<CryptoKeysTable>, sealer: KeySealer): StoredKey {
  const privateJwk = row.private_jwk_sealed ? sealer.open(row.kid, row.private_jwk_sealed) : row.private_jwk;
  if (!privateJwk) throw new Error(`key ${row.kid} has no private half`);
  return {
    kid: row.kid,
    use: row.use,
    alg: row.alg,
    publicJwk: row.public_jwk,
    privateJwk,
    createdAt: row.created_at,
    retiredAt: row.retired_at,
  };
}
