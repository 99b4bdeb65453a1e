import { calculateJwkThumbprint, type JWK } from 'jose';
import type { ErrorDetail } from '../errors.js';
import { errors } from '../errors.js';
import { isRecord } from '../is-record.js';

/** The signature algorithms a partner's key may use (FAPI 2.0: PS256, ES256, EdDSA; never RS256, never HMAC). */
export const PARTNER_SIGNING_ALGS = ['ES256', 'EdDSA', 'PS256'] as const;
export type PartnerSigningAlg = (typeof PARTNER_SIGNING_ALGS)[number];

/**
 * The JWS `alg` names accepted on assertions and DPoP proofs: the three above and `Ed25519`, RFC 9864's fully
 * specified name for EdDSA with an Ed25519 key, which current clients (openid-client 6, for one) send for
 * Ed25519 keys. Both names verify against the same registered Ed25519 key; the metadata lists both.
 */
export const ACCEPTED_JWS_ALGS = ['ES256', 'EdDSA', 'Ed25519', 'PS256'] as const;
export type AcceptedJwsAlg = (typeof ACCEPTED_JWS_ALGS)[number];

/**
 * Whether a JWS header's `alg` is one the gateway accepts (client assertions and DPoP proofs alike).
 *
 * @example
 * ```ts
 * isAcceptedJwsAlg('ES256'); // true
 * isAcceptedJwsAlg('HS256'); // false
 * ```
 */
export function isAcceptedJwsAlg(alg: unknown): alg is AcceptedJwsAlg {
  return typeof alg === 'string' && (ACCEPTED_JWS_ALGS as readonly string[]).includes(alg);
}

/** The key algorithm a JWS algorithm name needs: `Ed25519` is EdDSA on an Ed25519 key. */
export function keyAlgorithmOf(alg: AcceptedJwsAlg): PartnerSigningAlg {
  return alg === 'Ed25519' ? 'EdDSA' : alg;
}

/** A partner's public key as the gateway keeps it: the JWK itself, and what it may sign with. */
export interface PartnerKey {
  kid: string;
  /** RFC 7638 SHA-256 thumbprint, base64url. */
  thumbprint: string;
  alg: PartnerSigningAlg;
  jwk: JWK;
  /** `P-256` or `Ed25519` for EC and OKP keys, the modulus size in bits for RSA keys. */
  strength: string;
  /** When the key stops being accepted (ISO 8601): the end of a rotation's overlap window; absent for a key without an end. */
  expiresAt?: string;
}

/**
 * The keys that are still accepted at `at`: those without an end, and those whose overlap window (`expiresAt`, set
 * by a rotation) has not yet ended.
 *
 * @example
 * ```ts
 * liveKeys(partner.jwks, Date.now()).map((key) => key.kid);
 * ```
 */
export function liveKeys(keys: readonly PartnerKey[] | null, at: number): PartnerKey[] {
  if (!keys) return [];
  return keys.filter((key) => key.expiresAt === undefined || Date.parse(key.expiresAt) > at);
}

/** JWK members that carry private or secret key material (RFC 7517, RFC 7518 section 6). */
const PRIVATE_MEMBERS = ['d', 'p', 'q', 'dp', 'dq', 'qi', 'oth', 'k', 'priv'] as const;
/** True when a JWK carries private or secret key material: such a key must never be accepted or stored. */
export function hasPrivateMembers(jwk: Record<string, unknown>): boolean {
  return PRIVATE_MEMBERS.some((member) => member in jwk);
}

const MIN_RSA_BITS = 2048;
const MAX_KEYS = 20;
const KID = /^[\x21-\x7e]{1,128}$/;

/**
 * Checks a partner's JWK Set and returns its keys, or throws a 422 naming every refused key. Accepted:
 * EC P-256 (ES256), Ed25519 (EdDSA) and RSA of at least 2048 bits (PS256). Refused: any private or secret
 * member (a partner who sends its private key has leaked it, and we must not store it), symmetric keys,
 * other curves, weaker RSA keys, an `alg` the key cannot or may not use, a `use` other than `sig`, and two
 * keys with one kid. A key without a kid is given its thumbprint as kid.
 *
 * @example
 * ```ts
 * const keys = await validatePartnerJwks([{ kty: 'EC', crv: 'P-256', x: '...', y: '...', kid: 'k1' }]);
 * keys[0].alg; // 'ES256'
 * ```
 */
export async function validatePartnerJwks(input: unknown): Promise<PartnerKey[]> {
  if (!Array.isArray(input) || input.length === 0) {
    throw errors.validationFailed([{ field: 'keys', message: 'must be a non-empty array of public JWKs' }]);
  }
  if (input.length > MAX_KEYS) throw errors.validationFailed([{ field: 'keys', message: `at most ${MAX_KEYS} keys` }]);
  const problems: ErrorDetail[] = [];
  const keys: PartnerKey[] = [];
  for (const [index, jwk] of input.entries()) {
    const field = `keys[${index}]${isRecord(jwk) && typeof jwk.kid === 'string' ? ` (kid ${JSON.stringify(jwk.kid.slice(0, 64))})` : ''}`;
    const result = await readKey(jwk);
    if (typeof result === 'string') problems.push({ field, message: result });
    else if (keys.some((key) => key.kid === result.kid)) problems.push({ field, message: 'duplicate kid' });
    else keys.push(result);
  }
  if (problems.length > 0) throw errors.validationFailed(problems);
  return keys;
}

async function readKey(value: unknown): Promise<PartnerKey | string> {
  if (!isRecord(value)) return 'must be a JWK object';
  if (hasPrivateMembers(value)) return 'contains private key material; register the public key only';
  if (value.use !== undefined && value.use !== 'sig') return 'use must be "sig"';
  if (value.kid !== undefined && (typeof value.kid !== 'string' || !KID.test(value.kid))) return 'kid must be 1-128 printable ASCII characters';
  const shape = keyShape(value);
  if (typeof shape === 'string') return shape;
  if (value.alg !== undefined && value.alg !== shape.alg) return `alg must be ${shape.alg} for this key (got ${String(value.alg).slice(0, 20)})`;
  const jwk = publicMembers(value, shape.members);
  let thumbprint: string;
  try {
    thumbprint = await calculateJwkThumbprint(jwk as JWK, 'sha256');
  } catch {
    return 'is not a valid public key';
  }
  return { kid: typeof value.kid === 'string' ? value.kid : thumbprint, thumbprint, alg: shape.alg, jwk: { ...jwk, alg: shape.alg }, strength: shape.strength };
}

interface KeyShape {
  alg: PartnerSigningAlg;
  members: string[];
  strength: string;
}

function keyShape(jwk: Record<string, unknown>): KeyShape | string {
  if (jwk.kty === 'EC') {
    if (jwk.crv !== 'P-256') return 'EC keys must be on curve P-256';
    if (!isBase64Url(jwk.x, 43) || !isBase64Url(jwk.y, 43)) return 'x and y must be 32-byte base64url coordinates';
    return { alg: 'ES256', members: ['kty', 'crv', 'x', 'y'], strength: 'P-256' };
  }
  if (jwk.kty === 'OKP') {
    if (jwk.crv !== 'Ed25519') return 'OKP keys must be Ed25519';
    if (!isBase64Url(jwk.x, 43)) return 'x must be a 32-byte base64url key';
    return { alg: 'EdDSA', members: ['kty', 'crv', 'x'], strength: 'Ed25519' };
  }
  if (jwk.kty === 'RSA') {
    if (typeof jwk.n !== 'string' || typeof jwk.e !== 'string' || !isBase64Url(jwk.n) || !isBase64Url(jwk.e)) return 'n and e must be base64url';
    const bits = modulusBits(jwk.n);
    if (bits < MIN_RSA_BITS) return `RSA keys must have at least ${MIN_RSA_BITS} bits (this one has ${bits})`;
    if (bits > 8192) return 'RSA keys must have at most 8192 bits';
    return { alg: 'PS256', members: ['kty', 'n', 'e'], strength: String(bits) };
  }
  return 'kty must be EC (P-256), OKP (Ed25519) or RSA';
}

function publicMembers(jwk: Record<string, unknown>, members: string[]): Record<string, string> {
  return Object.fromEntries(members.map((member) => [member, jwk[member] as string]));
}

/** The modulus's size in bits, leading zero bits not counted. */
function modulusBits(n: string): number {
  const bytes = Buffer.from(n, 'base64url');
  let index = 0;
  while (index < bytes.length && bytes[index] === 0) index += 1;
  if (index === bytes.length) return 0;
  return (bytes.length - index) * 8 - Math.clz32(bytes[index]!) + 24;
}

function isBase64Url(value: unknown, length?: number): value is string {
  return typeof value === 'string' && /^[A-Za-z0-9_-]+$/.test(value) && (length === undefined || value.length === length);
}
