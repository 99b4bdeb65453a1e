import { compactDecrypt, decodeProtectedHeader, type CompactJWEHeaderParameters } from 'jose';
import { errors } from '../../errors.js';
import { ENCRYPTION_ALG, type KeyStore } from '../../keys/key-store.js';
import { isValidJti } from '../../stores/replay/single-use-jtis.js';
import type { DecryptedPassword } from '../auth-dependencies.js';

export interface DecryptOptions {
  keys: KeyStore;
  /** Seconds an `iat` may lie in the past. */
  maxAgeSeconds: number;
  /** Seconds an `iat` may lie in the future. */
  maxFutureSeconds: number;
  now?: () => number;
}

const CONTENT_ENCRYPTION = 'A256GCM';
/** RSA-OAEP with a 2048-bit key yields a 256-byte encrypted key: 342 base64url characters. */
const RSA_2048_ENCRYPTED_KEY_LENGTH = 342;
const MAX_JWE_LENGTH = 8192;
const MAX_PASSWORD_BYTES = 1024;
const BASE64URL = /^[A-Za-z0-9_-]*$/;

/**
 * True when `value` has the shape of a JWE in compact serialization: five base64url parts separated by dots,
 * with a non-empty protected header. Anything else is "not in encrypted form" (422), not a failed login.
 */
export function isCompactJwe(value: string): boolean {
  const parts = value.split('.');
  return parts.length === 5 && parts[0] !== '' && parts.every((part) => BASE64URL.test(part));
}

/**
 * Decrypts a partnerPassword JWE. Every header rule is checked before any private-key work, so a forged or
 * stale JWE costs a string split and a JSON parse, not an RSA decryption:
 * `alg` must be RSA-OAEP-256 and `enc` A256GCM; `zip` and `crit` are refused; `kid` must name one of our
 * encryption keys; `iat` (integer seconds) must lie within [now - maxAge, now + maxFuture]; `jti` must be 1-128
 * printable ASCII characters. Every failure is the same 401; the reason is kept for the logs.
 */
export async function decryptPartnerPassword(jwe: string, options: DecryptOptions): Promise<DecryptedPassword> {
  if (jwe.length > MAX_JWE_LENGTH) throw errors.unauthorized('undecryptable');
  let header: CompactJWEHeaderParameters;
  try {
    header = decodeProtectedHeader(jwe) as CompactJWEHeaderParameters;
  } catch {
    throw errors.unauthorized('undecryptable');
  }
  if (header.alg !== ENCRYPTION_ALG || header.enc !== CONTENT_ENCRYPTION || 'zip' in header || 'crit' in header) {
    throw errors.unauthorized('unsupported_jwe_header');
  }
  const key = typeof header.kid === 'string' ? await options.keys.decryptionKey(header.kid) : undefined;
  if (!key) throw errors.unauthorized('unknown_kid');

  const now = Math.floor((options.now?.() ?? Date.now()) / 1000);
  const iat = header.iat;
  if (typeof iat !== 'number' || !Number.isInteger(iat) || iat < now - options.maxAgeSeconds || iat > now + options.maxFutureSeconds) {
    throw errors.unauthorized('iat_out_of_window');
  }
  const jti = header.jti;
  if (!isValidJti(jti)) throw errors.unauthorized('invalid_jti');
  if (jwe.split('.')[1]?.length !== RSA_2048_ENCRYPTED_KEY_LENGTH) throw errors.unauthorized('undecryptable');

  let plaintext: Uint8Array;
  try {
    ({ plaintext } = await compactDecrypt(jwe, key, {
      keyManagementAlgorithms: [ENCRYPTION_ALG],
      contentEncryptionAlgorithms: [CONTENT_ENCRYPTION],
    }));
  } catch {
    throw errors.unauthorized('undecryptable');
  }
  if (plaintext.byteLength === 0 || plaintext.byteLength > MAX_PASSWORD_BYTES) throw errors.unauthorized('undecryptable');
  let password: string;
  try {
    password = new TextDecoder('utf-8', { fatal: true }).decode(plaintext);
  } catch {
    throw errors.unauthorized('undecryptable');
  }
  return { password, jti, rememberUntil: new Date((iat + options.maxAgeSeconds + 1) * 1000), issuedAt: iat };
}
