import { createHash } from 'node:crypto';
import { calculateJwkThumbprint, decodeProtectedHeader, importJWK, jwtVerify, type CryptoKey, type JWK } from 'jose';
import { errors } from '../../errors.js';
import { isValidJti } from '../../stores/replay/valid-jti.js';
import { ACCEPTED_JWS_ALGS, hasPrivateMembers } from '../../partners/partner-keys.js';
import type { DpopProofSettings } from '../auth-dependencies.js';

export interface DpopCheck {
  /** The request's method, as the proof's `htm` must name it. */
  method: string;
  /** The URL the partner called, without query or fragment, as the proof's `htu` must name it. */
  url: string;
  /** With a DPoP-bound access token: the token, whose SHA-256 the proof's `ath` must carry. */
  accessToken?: string;
  /** Seconds an `iat` may lie in the past, and in the future (the JWE window's bounds). */
  maxAgeSeconds: number;
  maxFutureSeconds: number;
  now: () => number;
}

export interface VerifiedDpopProof {
  /** RFC 7638 thumbprint of the proof's key: the token's `cnf.jkt`. */
  jkt: string;
  jti: string;
  /** Until when the jti must be remembered to refuse a replay. */
  rememberUntil: Date;
  /** Its `iat` (seconds): refused when the replay state was lost after it (SingleUseJtis). */
  issuedAt: number;
}

/** Far above a proof carrying a 4096-bit RSA key; longer input is refused before any parsing. */
const MAX_PROOF_LENGTH = 8192;

/**
 * Checks a DPoP proof as RFC 9449 section 4.3 lists it: one compact JWT, `typ: dpop+jwt`, an asymmetric
 * algorithm we accept (ES256, EdDSA, PS256), signed by the public `jwk` in its own header (never a private
 * one), `htm` and `htu` naming this request, `iat` within the window, a printable `jti`, and, when an access
 * token comes with it, `ath` equal to the token's SHA-256. Every failure is a 401/400 decided by the caller;
 * this throws `invalid_dpop_proof` with the reason kept for the logs. The jti is the caller's to claim.
 *
 * @example
 * ```ts
 * const proof = await verifyDpopProof(request.headers.dpop, { method: 'POST', url: 'https://gw.example/api/v1/oauth/token', ...window });
 * proof.jkt; // bind the new token to this key
 * ```
 */
export async function verifyDpopProof(proof: string, check: DpopCheck): Promise<VerifiedDpopProof> {
  if (proof.length > MAX_PROOF_LENGTH || proof.split('.').length !== 3) throw errors.invalidDpopProof('malformed_dpop_proof');
  let header;
  try {
    header = decodeProtectedHeader(proof);
  } catch {
    throw errors.invalidDpopProof('malformed_dpop_proof');
  }
  const jwk = header.jwk as Record<string, unknown> | undefined;
  if (!jwk || typeof jwk !== 'object' || hasPrivateMembers(jwk)) throw errors.invalidDpopProof('dpop_key_refused');
  let payload;
  let key: ProofKey;
  try {
    key = await proofKey(jwk, header.alg);
    ({ payload } = await jwtVerify(proof, key.key, {
      typ: 'dpop+jwt',
      algorithms: [...ACCEPTED_JWS_ALGS],
      requiredClaims: ['jti', 'htm', 'htu', 'iat'],
      // iat is checked below against the gateway's own window.
      currentDate: new Date(check.now()),
    }));
  } catch {
    throw errors.invalidDpopProof('dpop_signature_invalid');
  }
  if (!isValidJti(payload.jti)) throw errors.invalidDpopProof('malformed_dpop_proof');
  if (payload.htm !== check.method) throw errors.invalidDpopProof('dpop_htm_mismatch');
  if (typeof payload.htu !== 'string' || normalizeHtu(payload.htu) !== normalizeHtu(check.url)) throw errors.invalidDpopProof('dpop_htu_mismatch');
  const now = Math.floor(check.now() / 1000);
  const iat = payload.iat!;
  if (!Number.isInteger(iat) || iat < now - check.maxAgeSeconds || iat > now + check.maxFutureSeconds) {
    throw errors.invalidDpopProof('dpop_iat_out_of_window');
  }
  if (check.accessToken !== undefined) {
    const expected = createHash('sha256').update(check.accessToken, 'ascii').digest('base64url');
    if (payload.ath !== expected) throw errors.invalidDpopProof('dpop_ath_mismatch');
  }
  const jkt = key.jkt;
  return { jkt, jti: payload.jti, rememberUntil: new Date((iat + check.maxAgeSeconds + 1) * 1000), issuedAt: iat };
}

interface ProofKey {
  key: CryptoKey | Uint8Array;
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
function proofKey(jwk: Record<string, unknown>, alg: string | undefined): Promise<ProofKey> {
  if (typeof alg !== 'string' || !(ACCEPTED_JWS_ALGS as readonly string[]).includes(alg)) return Promise.reject(new Error('algorithm refused'));
  const cacheKey = `${alg} ${JSON.stringify(jwk)}`;
  let pending = proofKeys.get(cacheKey);
  if (!pending) {
    if (proofKeys.size >= MAX_PROOF_KEYS) proofKeys.clear();
    pending = Promise.all([importJWK(jwk as JWK, alg), calculateJwkThumbprint(jwk as JWK, 'sha256')]).then(([key, jkt]) => ({ key, jkt }));
    pending.catch(() => proofKeys.delete(cacheKey));
    proofKeys.set(cacheKey, pending);
  }
  return pending;
}

/**
 * The scheme and host compared case-insensitively and a default port dropped (RFC 3986 section 6.2.2 and
 * 6.2.3), query and fragment ignored (RFC 9449 section 4.3); the path compared exactly. Unparseable: never equal.
 */
function normalizeHtu(value: string): string {
  try {
    const url = new URL(value);
    return `${url.protocol}//${url.host}${url.pathname}`;
  } catch {
    return `\0${value}`;
  }
}


/** What a proof must name: the method and the public URL (no query) of this request, and the token it comes with. */
export interface DpopRequest {
  method: string;
  url: string;
  accessToken?: string;
}

/**
 * Verifies a DPoP proof (verifyDpopProof) and spends its jti, once for every instance: the store key is the
 * SHA-256 of the jti under a prefix of its own, so a proof's jti can never collide with a JWE's or an
 * assertion's. A second use is `invalid_dpop_proof` with reason `dpop_proof_replayed`; a proof issued before
 * the replay state was lost, the same answer with reason `replay_state_lost`.
 *
 * @example
 * ```ts
 * const proof = await claimDpopProof(request.headers.dpop, { method: 'POST', url: tokenUrl }, settings);
 * await tokens.issue(partner, familyId, { jkt: proof.jkt });
 * ```
 */
export async function claimDpopProof(proof: string, request: DpopRequest, settings: DpopProofSettings): Promise<VerifiedDpopProof> {
  const verified = await verifyDpopProof(proof, { ...request, maxAgeSeconds: settings.maxAgeSeconds, maxFutureSeconds: settings.maxFutureSeconds, now: settings.now });
  await spendDpopProof(verified, settings);
  return verified;
}

/** Spends an already verified proof's jti (for callers that verify first and spend once other checks pass). */
export async function spendDpopProof(verified: VerifiedDpopProof, settings: Pick<DpopProofSettings, 'replay'>): Promise<void> {
  const spent = await settings.replay.spend(dpopReplayKey(verified.jti), verified);
  if (spent !== 'spent') throw errors.invalidDpopProof(spent === 'replayed' ? 'dpop_proof_replayed' : 'replay_state_lost');
}

/** The replay-store key of a proof's jti. */
export function dpopReplayKey(jti: string): string {
  return `dpop:${createHash('sha256').update(jti).digest('base64url')}`;
}

/** Verifies a proof without spending it (see spendDpopProof). */
export function checkDpopProof(proof: string, request: DpopRequest, settings: Omit<DpopProofSettings, 'replay'>): Promise<VerifiedDpopProof> {
  return verifyDpopProof(proof, { ...request, maxAgeSeconds: settings.maxAgeSeconds, maxFutureSeconds: settings.maxFutureSeconds, now: settings.now });
}

/**
 * The `DPoP` header as sent: undefined when absent; refused when sent twice (RFC 9449 section 4.3: exactly one
 * proof), which Node hands over joined by a comma.
 */
export function readDpopHeader(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  if (Array.isArray(header) || header.includes(',')) throw errors.invalidDpopProof('malformed_dpop_proof');
  return header.trim();
}
