import { createPrivateKey, KeyObject } from 'node:crypto';
import type { CryptoKey, JWK } from 'jose';

/**
 * The algorithms the gateway accepts for client assertions and DPoP proofs (FAPI 2.0's list, less the RSA
 * PKCS#1 v1.5 ones).
 *
 * @example
 * ```ts
 * const alg: SigningAlgorithm = 'ES256';
 * ```
 */
export type SigningAlgorithm = 'ES256' | 'EdDSA' | 'PS256';

/**
 * A private key as the SDK takes it: a WebCrypto CryptoKey or a Node KeyObject (what jose calls a KeyLike),
 * a private JWK (with `d`), or a PKCS#8 / SEC1 / PKCS#1 PEM string.
 *
 * @example
 * ```ts
 * const key: PrivateKeyInput = JSON.parse(readFileSync('partner-key.jwk.json', 'utf8'));
 * ```
 */
export type PrivateKeyInput = CryptoKey | KeyObject | JWK | string;

/**
 * A key ready to sign with, and the algorithm its type implies.
 *
 * @example
 * ```ts
 * const { key, alg } = signingKey(privateKeyPem); // alg: 'ES256' for a P-256 key
 * ```
 */
export interface SigningKey {
  key: CryptoKey | KeyObject;
  alg: SigningAlgorithm;
}

/**
 * Reads a private key and infers its algorithm: EC P-256 signs ES256, Ed25519 EdDSA, RSA (2048 bits or more)
 * PS256. Anything else is refused with a TypeError that names the key type, never its material.
 *
 * @example
 * ```ts
 * const { alg } = signingKey((await generateKeyPair('EdDSA')).privateKey); // 'EdDSA'
 * ```
 */
export function signingKey(input: PrivateKeyInput): SigningKey {
  if (typeof input === 'string') {
    let key: KeyObject;
    try {
      key = createPrivateKey(input);
    } catch {
      throw new TypeError('The private key is not a PEM private key');
    }
    return { key, alg: algorithmOfKeyObject(key) };
  }
  if (input instanceof KeyObject) {
    if (input.type !== 'private') throw new TypeError('The key is not a private key');
    return { key: input, alg: algorithmOfKeyObject(input) };
  }
  if (isCryptoKey(input)) {
    if (input.type !== 'private') throw new TypeError('The key is not a private key');
    return { key: input, alg: algorithmOfCryptoKey(input) };
  }
  const jwk = input as JWK;
  if (typeof jwk !== 'object' || jwk === null || typeof jwk.d !== 'string') throw new TypeError('The JWK is not a private key (it has no "d")');
  const alg = algorithmOfJwk(jwk);
  let key: KeyObject;
  try {
    key = createPrivateKey({ key: jwk as import('node:crypto').JsonWebKey, format: 'jwk' });
  } catch {
    throw new TypeError(`The private JWK (${jwk.kty} ${jwk.crv ?? ''}) is malformed`.replace(' )', ')'));
  }
  return { key, alg };
}

function isCryptoKey(input: unknown): input is CryptoKey {
  // WebCrypto's class is a global from Node 20 on, but not in the types of the ES library this package targets.
  const CryptoKeyClass = (globalThis as { CryptoKey?: abstract new () => unknown }).CryptoKey;
  return typeof CryptoKeyClass === 'function' && input instanceof CryptoKeyClass;
}

function algorithmOfKeyObject(key: KeyObject): SigningAlgorithm {
  const type = key.asymmetricKeyType;
  if (type === 'ec' && key.asymmetricKeyDetails?.namedCurve === 'prime256v1') return 'ES256';
  if (type === 'ed25519') return 'EdDSA';
  if ((type === 'rsa' || type === 'rsa-pss') && (key.asymmetricKeyDetails?.modulusLength ?? 0) >= 2048) return 'PS256';
  throw unsupported(`${type ?? 'unknown'}${key.asymmetricKeyDetails?.namedCurve ? ` ${key.asymmetricKeyDetails.namedCurve}` : ''}${key.asymmetricKeyDetails?.modulusLength ? ` ${key.asymmetricKeyDetails.modulusLength} bits` : ''}`);
}

function algorithmOfCryptoKey(key: CryptoKey): SigningAlgorithm {
  const algorithm = key.algorithm as { name: string; namedCurve?: string; modulusLength?: number; hash?: { name: string } };
  if (algorithm.name === 'ECDSA' && algorithm.namedCurve === 'P-256') return 'ES256';
  if (algorithm.name === 'Ed25519') return 'EdDSA';
  // A WebCrypto RSA key is tied to one scheme and hash: only RSA-PSS with SHA-256 can sign PS256.
  if (algorithm.name === 'RSA-PSS' && algorithm.hash?.name === 'SHA-256' && (algorithm.modulusLength ?? 0) >= 2048) return 'PS256';
  throw unsupported(`${algorithm.name}${algorithm.namedCurve ? ` ${algorithm.namedCurve}` : ''}${algorithm.hash ? ` ${algorithm.hash.name}` : ''}`);
}

function algorithmOfJwk(jwk: JWK): SigningAlgorithm {
  if (jwk.kty === 'EC' && jwk.crv === 'P-256') return 'ES256';
  if (jwk.kty === 'OKP' && jwk.crv === 'Ed25519') return 'EdDSA';
  if (jwk.kty === 'RSA' && typeof jwk.n === 'string' && Buffer.from(jwk.n, 'base64url').length * 8 >= 2048) return 'PS256';
  throw unsupported(`${jwk.kty ?? 'no kty'}${jwk.crv ? ` ${jwk.crv}` : ''}`);
}

function unsupported(what: string): TypeError {
  return new TypeError(`Unsupported key (${what}): use an EC P-256 (ES256), Ed25519 (EdDSA) or RSA key of at least 2048 bits (PS256)`);
}
