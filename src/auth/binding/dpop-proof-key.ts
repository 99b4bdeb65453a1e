import type { KeyObject } from 'node:crypto';
import { calculateJwkThumbprint, importJWK, type CryptoKey, type JWK } from 'jose';
import { es256PublicKey } from '../../keys/es256-jwt.js';
import { isAcceptedJwsAlg } from '../../partners/partner-keys.js';

/** A DPoP proof's embedded public key, ready to verify its signature. */
export interface ProofKey {
  key: CryptoKey | Uint8Array;
  /** For ES256, the key as a KeyObject too: verifyEs256Jwt checks the proof with node:crypto (issue 35). */
  keyObject?: KeyObject;
  /** RFC 7638 thumbprint of the JWK. */
  jkt: string;
}

/** Proof keys seen lately: a bound token's holder signs every proof with the same key. */
const proofKeys = new Map<string, Promise<ProofKey>>();
const MAX_PROOF_KEYS = 10_000;

/**
 * The proof's embedded public key, imported once per key and algorithm (what jose's EmbeddedJWK does per
 * call: a WebCrypto import and, here, a thumbprint, about a fifth of a DPoP call's own CPU), bounded: a flood of
 * distinct keys empties the map rather than growing it. A key that fails to import is not kept.
 */
export function proofKey(jwk: Record<string, unknown>, alg: string | undefined): Promise<ProofKey> {
  if (!isAcceptedJwsAlg(alg)) return Promise.reject(new Error('algorithm refused'));
  const cacheKey = `${alg} ${JSON.stringify(jwk)}`;
  let pending = proofKeys.get(cacheKey);
  if (!pending) {
    if (proofKeys.size >= MAX_PROOF_KEYS) proofKeys.clear();
    pending = Promise.all([importJWK(jwk as JWK, alg), calculateJwkThumbprint(jwk as JWK, 'sha256')]).then(([key, jkt]) => ({
      key,
      jkt,
      // importJWK accepted it for ES256, so it is a P-256 public key.
      ...(alg === 'ES256' ? { keyObject: es256PublicKey(jwk as JWK) } : {}),
    }));
    pending.catch(() => proofKeys.delete(cacheKey));
    proofKeys.set(cacheKey, pending);
  }
  return pending;
}
