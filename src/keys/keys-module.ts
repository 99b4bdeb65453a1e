import type { KeyView } from '@partner-gateway/contract/admin-keys';
import type { Kysely } from 'kysely';
import type { ChangeFeed } from '../db/change-feed.js';
import type { Database } from '../db/schema.js';
import { errors } from '../errors.js';
import { createKeyRepository, type KeyUse } from './key-repository.js';
import { loadKeyStore, type KeyStore } from './key-store.js';
import { toKeyView } from './key-view.js';
import { createKeySealer } from './master-key.js';

/** The settings the keys follow (config.ts): how long a retired key still verifies and decrypts. */
export interface KeySettings {
  TOKEN_TTL: number;
  ENC_KEY_GRACE: number;
}

/** The gateway's signing and encryption keys, wired: what tokens and JWEs use, and what the admin API changes. */
export interface KeysModule {
  store: KeyStore;
  admin: {
    /** Every key in service, read fresh from the database (another instance may have rotated). */
    list(): Promise<KeyView[]>;
    /** A new active key; the old one keeps working for its grace period. Every instance is told. */
    rotate(use: KeyUse): Promise<KeyView>;
    /** Drops a key at once (a new active key of its use first, if it was active); 404 for an unknown kid. */
    revoke(kid: string): Promise<KeyView>;
  };
}

/**
 * Loads (or creates) the keys, their private halves sealed under `masterKey`, and subscribes the store to the
 * change feed: a rotation or a revocation on another instance reloads the keys here at once.
 *
 * @example
 * ```ts
 * const keys = await createKeys(handle.db, feed, config, masterKey, Date.now);
 * keys.store.jwks(); // { keys: [{ use: 'sig', alg: 'ES256', ... }, { use: 'enc', alg: 'RSA-OAEP-256', ... }] }
 * ```
 */
export async function createKeys(db: Kysely<Database>, feed: ChangeFeed, config: KeySettings, masterKey: Buffer, now: () => number): Promise<KeysModule> {
  const store = await loadKeyStore({
    repository: createKeyRepository(db, createKeySealer(masterKey)),
    // A retired signing key verifies for a token lifetime plus a minute of clock margin.
    sigGraceSeconds: config.TOKEN_TTL + 60,
    encGraceSeconds: config.ENC_KEY_GRACE,
    now,
    onRotate: () => feed.publish({ kind: 'keys' }),
    onRevoke: () => feed.publish({ kind: 'keys' }),
  });
  feed.subscribe('keys', () => store.reload().catch(() => {}));
  return {
    store,
    admin: {
      async list() {
        await store.reload();
        return store.list().map(toKeyView);
      },
      rotate: async (use) => toKeyView(await store.rotate(use)),
      async revoke(kid) {
        const key = await store.revoke(kid);
        if (!key) throw errors.notFound();
        return toKeyView(key);
      },
    },
  };
}
