import { sql, type Kysely, type Selectable } from 'kysely';
import type { CryptoKeysTable, Database } from '../db/schema.js';

export type KeyUse = 'sig' | 'enc';

/** A key pair as stored: the public and private halves as JWKs. */
export interface StoredKey {
  kid: string;
  use: KeyUse;
  alg: string;
  publicJwk: Record<string, unknown>;
  privateJwk: Record<string, unknown>;
  createdAt: Date;
}

export type NewKey = Omit<StoredKey, 'createdAt'>;

export interface KeyRepository {
  /** The keys in service, oldest first. */
  listActive(): Promise<StoredKey[]>;
  /**
   * Makes sure one active key exists for each `use` in `wanted`, generating the missing ones. Runs under a
   * transaction-scoped advisory lock so that instances starting together agree on one key per use.
   */
  ensureActive(wanted: Array<{ use: KeyUse; generate: () => Promise<NewKey> }>): Promise<void>;
}

/** An arbitrary constant naming the advisory lock that serializes key creation across instances. */
const KEY_CREATION_LOCK = 7_210_001;

export function createKeyRepository(db: Kysely<Database>): KeyRepository {
  return {
    async listActive() {
      const rows = await db.selectFrom('crypto_keys').selectAll().where('retired_at', 'is', null).orderBy('id').execute();
      return rows.map(toStoredKey);
    },
    async ensureActive(wanted) {
      await db.transaction().execute(async (trx) => {
        await sql`select pg_advisory_xact_lock(${KEY_CREATION_LOCK})`.execute(trx);
        const present = await trx.selectFrom('crypto_keys').select('use').where('retired_at', 'is', null).execute();
        for (const { use, generate } of wanted) {
          if (present.some((row) => row.use === use)) continue;
          const key = await generate();
          await trx
            .insertInto('crypto_keys')
            .values({
              kid: key.kid,
              use: key.use,
              alg: key.alg,
              public_jwk: JSON.stringify(key.publicJwk),
              private_jwk: JSON.stringify(key.privateJwk),
            })
            .execute();
        }
      });
    },
  };
}

function toStoredKey(row: Selectable<CryptoKeysTable>): StoredKey {
  return {
    kid: row.kid,
    use: row.use,
    alg: row.alg,
    publicJwk: row.public_jwk,
    privateJwk: row.private_jwk,
    createdAt: row.created_at,
  };
}
