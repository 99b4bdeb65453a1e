import { createPrivateKey, type JsonWebKey, type KeyObject, type webcrypto } from 'node:crypto';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, type JWK } from 'jose';
import type { KeyRepository, KeyUse, NewKey, StoredKey } from './key-repository.js';

/** The signature algorithm of access tokens (RFC 9068 profile). */
export const SIGNING_ALG = 'ES256';
/** The key management algorithm partners encrypt partnerPassword with. */
export const ENCRYPTION_ALG = 'RSA-OAEP-256';

type Key = webcrypto.CryptoKey | Uint8Array;

/** What operators see of a key: never its private half. */
export interface KeyInfo {
  kid: string;
  use: KeyUse;
  alg: string;
  createdAt: Date;
  retiredAt: Date | null;
  /** When a retired key stops verifying or decrypting and leaves the JWKS; null for the active key. */
  usableUntil: Date | null;
  active: boolean;
}

export interface KeyStoreOptions {
  repository: KeyRepository;
  /** How long a retired signing key keeps verifying: at least the access token lifetime. */
  sigGraceSeconds: number;
  /** How long a retired encryption key keeps decrypting (ENC_KEY_GRACE). */
  encGraceSeconds: number;
  now?: () => number;
  /** Told after a rotation made a new key active (the gateway tells the other instances to reload). */
  onRotate?: (key: KeyInfo) => void;
  /** Told after a revocation dropped a key (the gateway tells the other instances to reload at once). */
  onRevoke?: (key: KeyInfo) => void;
}

/**
 * The gateway's keys, loaded from the database: every instance signs, verifies and decrypts with the same
 * ones. Rotation makes a new key active at once; the retired key stays in the JWKS and keeps working for
 * its grace period, then drops out by itself (checked on every lookup, not by a job). An unknown kid makes
 * the store reload from the database (at most every few seconds), so a key rotated by another instance is
 * picked up on first use.
 */
export interface KeyStore {
  /**
   * The active signing key: as jose takes it, and, for ES256, as a `node:crypto` KeyObject too (signEs256Jwt:
   * synchronous, several times cheaper than WebCrypto's signing, issue 35).
   */
  signing(): { kid: string; key: Key; keyObject?: KeyObject };
  verificationKey(kid: string): Promise<Key | undefined>;
  decryptionKey(kid: string): Promise<Key | undefined>;
  jwks(): { keys: JWK[] };
  list(): KeyInfo[];
  reload(): Promise<void>;
  rotate(use: KeyUse): Promise<KeyInfo>;
  /**
   * Drops a key at once (a compromised one): it leaves the JWKS, and tokens signed by it and JWEs encrypted
   * to it are refused. An active key is replaced by a new key of its use first, so service goes on. Returns
   * the key's view as revoked (usable until now), or undefined for an unknown kid.
   */
  revoke(kid: string): Promise<KeyInfo | undefined>;
  /** Whether `kid` is a usable key of `use` among those loaded (no database round trip). */
  holds(kid: string, use: KeyUse): boolean;
}

interface LoadedKey {
  info: StoredKey;
  publicKey: Key;
  privateKey: Key;
  /** The private key as a KeyObject, for an ES256 signing key (signEs256Jwt). */
  privateKeyObject?: KeyObject;
}

/** The least time between two reloads triggered by unknown kids: an attacker's random kids cost one query per period. */
const RELOAD_INTERVAL_MS = 5_000;

export async function loadKeyStore(options: KeyStoreOptions): Promise<KeyStore> {
  const now = options.now ?? (() => Date.now());
  const grace: Record<KeyUse, number> = { sig: options.sigGraceSeconds * 1000, enc: options.encGraceSeconds * 1000 };
  let keys: LoadedKey[] = [];
  let lastReload = 0;

  const usableUntil = (key: StoredKey) => (key.retiredAt ? new Date(key.retiredAt.getTime() + grace[key.use]) : null);
  const usable = (key: StoredKey) => key.retiredAt === null || now() < usableUntil(key)!.getTime();

  let reloads = 0;
  async function reload(): Promise<void> {
    lastReload = now();
    // Reloads may overlap (a change announced while another runs): only the latest started may set the keys,
    // or a slow one begun before a revocation could bring the revoked key back.
    const started = ++reloads;
    const stored = await options.repository.listUsable({
      sig: new Date(now() - grace.sig),
      enc: new Date(now() - grace.enc),
    });
    const loaded = await Promise.all(
      stored.map(async (info) => ({
        info,
        publicKey: await importJWK(info.publicJwk as JWK, info.alg),
        privateKey: await importJWK(info.privateJwk as JWK, info.alg),
        ...(info.use === 'sig' && info.alg === SIGNING_ALG ? { privateKeyObject: createPrivateKey({ key: info.privateJwk as JsonWebKey, format: 'jwk' }) } : {}),
      })),
    );
    if (started === reloads) keys = loaded;
  }

  async function find(kid: string, use: KeyUse): Promise<LoadedKey | undefined> {
    let key = keys.find((candidate) => candidate.info.kid === kid && candidate.info.use === use);
    if (!key && now() - lastReload >= RELOAD_INTERVAL_MS) {
      await reload();
      key = keys.find((candidate) => candidate.info.kid === kid && candidate.info.use === use);
    }
    return key && usable(key.info) ? key : undefined;
  }

  const toInfo = (key: StoredKey): KeyInfo => ({
    kid: key.kid,
    use: key.use,
    alg: key.alg,
    createdAt: key.createdAt,
    retiredAt: key.retiredAt,
    usableUntil: usableUntil(key),
    active: key.retiredAt === null,
  });

  await options.repository.ensureActive([
    { use: 'sig', generate: () => generateStoredKey('sig', SIGNING_ALG) },
    { use: 'enc', generate: () => generateStoredKey('enc', ENCRYPTION_ALG) },
  ]);
  await reload();

  return {
    signing() {
      const active = keys.filter((key) => key.info.use === 'sig' && key.info.retiredAt === null).at(-1);
      if (!active) throw new Error('No active signing key');
      return { kid: active.info.kid, key: active.privateKey, ...(active.privateKeyObject ? { keyObject: active.privateKeyObject } : {}) };
    },
    verificationKey: async (kid) => (await find(kid, 'sig'))?.publicKey,
    decryptionKey: async (kid) => (await find(kid, 'enc'))?.privateKey,
    jwks: () => ({ keys: keys.filter((key) => usable(key.info)).map((key) => publicJwkOf(key.info)) }),
    list: () => keys.filter((key) => usable(key.info)).map((key) => toInfo(key.info)),
    reload,
    async revoke(kid) {
      const revoked = await options.repository.revoke(kid, (use) => generateStoredKey(use, use === 'sig' ? SIGNING_ALG : ENCRYPTION_ALG));
      if (!revoked) return undefined;
      await reload();
      const at = new Date(now());
      const info = { ...toInfo(revoked), retiredAt: revoked.retiredAt ?? at, usableUntil: at, active: false };
      options.onRevoke?.(info);
      return info;
    },
    holds: (kid, use) => keys.some((key) => key.info.kid === kid && key.info.use === use && usable(key.info)),
    async rotate(use) {
      const key = await generateStoredKey(use, use === 'sig' ? SIGNING_ALG : ENCRYPTION_ALG);
      await options.repository.rotate(key);
      await reload();
      const rotated = keys.find((candidate) => candidate.info.kid === key.kid);
      if (!rotated) throw new Error('rotated key not found after reload');
      const info = toInfo(rotated.info);
      options.onRotate?.(info);
      return info;
    },
  };
}

function publicJwkOf(key: StoredKey): JWK {
  return { ...(key.publicJwk as JWK), kid: key.kid, use: key.use, alg: key.alg };
}

export async function generateStoredKey(use: KeyUse, alg: string): Promise<NewKey> {
  const pair = await generateKeyPair(alg, { extractable: true, ...(use === 'enc' ? { modulusLength: 2048 } : {}) });
  const publicJwk = await exportJWK(pair.publicKey);
  const privateJwk = await exportJWK(pair.privateKey);
  // The kid is the RFC 7638 thumbprint: stable, unique per key, and checkable by anyone holding the JWK.
  const kid = await calculateJwkThumbprint(publicJwk);
  return { kid, use, alg, publicJwk: { ...publicJwk }, privateJwk: { ...privateJwk } };
}
