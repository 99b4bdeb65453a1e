import type { webcrypto } from 'node:crypto';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, type JWK } from 'jose';
import type { KeyRepository, NewKey, StoredKey } from './key-repository.js';

/** The signature algorithm of access tokens (RFC 9068 profile). */
export const SIGNING_ALG = 'ES256';
/** The key management algorithm partners encrypt partnerPassword with. */
export const ENCRYPTION_ALG = 'RSA-OAEP-256';

type Key = webcrypto.CryptoKey | Uint8Array;

/**
 * The gateway's key material, loaded from the database at start. Every instance reads the same keys, so a
 * token signed or a JWE encrypted for one instance verifies or decrypts on any other.
 */
export interface KeyStore {
  /** The active signing key. */
  signing: { kid: string; key: Key };
  /** A verification key by `kid`, or `undefined` for an unknown kid. */
  verificationKey(kid: string): Key | undefined;
  /** A decryption key by `kid`, or `undefined` for an unknown kid. */
  decryptionKey(kid: string): Key | undefined;
  /** The public JWK Set served at /.well-known/jwks.json. */
  jwks: { keys: JWK[] };
}

/**
 * Loads the keys in service, first generating an ES256 signing key and an RSA-OAEP-256 (2048-bit)
 * encryption key if the database has none.
 */
export async function loadKeyStore(repository: KeyRepository): Promise<KeyStore> {
  await repository.ensureActive([
    { use: 'sig', generate: () => generateStoredKey('sig', SIGNING_ALG) },
    { use: 'enc', generate: () => generateStoredKey('enc', ENCRYPTION_ALG) },
  ]);
  const stored = await repository.listActive();
  const verification = new Map<string, Key>();
  const decryption = new Map<string, Key>();
  let signing: { kid: string; key: Key } | undefined;
  for (const key of stored) {
    if (key.use === 'sig') {
      verification.set(key.kid, await importJWK(key.publicJwk as JWK, key.alg));
      signing = { kid: key.kid, key: await importJWK(key.privateJwk as JWK, key.alg) };
    } else {
      decryption.set(key.kid, await importJWK(key.privateJwk as JWK, key.alg));
    }
  }
  if (!signing) throw new Error('No active signing key');
  return {
    signing,
    verificationKey: (kid) => verification.get(kid),
    decryptionKey: (kid) => decryption.get(kid),
    jwks: { keys: stored.map(publicJwkOf) },
  };
}

function publicJwkOf(key: StoredKey): JWK {
  return { ...(key.publicJwk as JWK), kid: key.kid, use: key.use, alg: key.alg };
}

export async function generateStoredKey(use: 'sig' | 'enc', alg: string): Promise<NewKey> {
  const pair = await generateKeyPair(alg, { extractable: true, ...(use === 'enc' ? { modulusLength: 2048 } : {}) });
  const publicJwk = await exportJWK(pair.publicKey);
  const privateJwk = await exportJWK(pair.privateKey);
  // The kid is the RFC 7638 thumbprint: stable, unique per key, and checkable by anyone holding the JWK.
  const kid = await calculateJwkThumbprint(publicJwk);
  return { kid, use, alg, publicJwk: { ...publicJwk }, privateJwk: { ...privateJwk } };
}
