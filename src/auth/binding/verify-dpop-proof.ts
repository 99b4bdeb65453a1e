import { createHash } from 'node:crypto';
import { decodeProtectedHeader, jwtVerify, type JWTPayload, type ProtectedHeaderParameters } from 'jose';
import type { AuthFailureReason } from '@partner-gateway/contract/audit-names';
import { errors } from '../../errors.js';
import { verifyEs256Jwt } from '../../keys/es256-jwt.js';
import { isValidJti } from '../../stores/replay/single-use-jtis.js';
import { ACCEPTED_JWS_ALGS, hasPrivateMembers, isAcceptedJwsAlg } from '../../partners/partner-keys.js';
import type { DpopProofSettings } from '../auth-dependencies.js';
import type { RequestContext } from '../../request-context.js';
import { proofKey, type ProofKey } from './dpop-proof-key.js';

export interface DpopCheck {
  /** The request's method, as the proof's `htm` must name it. */
  method: string;
  /** The URL the partner called, without query or fragment, as the proof's `htu` must name it. */
  url: string;
  /**
   * Other URLs the same resource of the same listener is published under (PUBLIC_TLS_URL's, when a proxy
   * terminates the mutual-TLS alias and forwards it to the plain listener): `htu` may name one of them instead.
   */
  aliasUrls?: readonly string[] | undefined;
  /** With a DPoP-bound access token: the token, whose SHA-256 the proof's `ath` must carry. */
  accessToken?: string;
  /** With a DPoP-bound access token: its `cnf.jkt`, the thumbprint the proof's key must have. */
  jkt?: string;
  /** Seconds an `iat` may lie in the past, and in the future (the JWE window's bounds). */
  maxAgeSeconds: number;
  maxFutureSeconds: number;
  /** With DPOP_NONCE=required: the nonces the proof's `nonce` must be one of. */
  nonces?: DpopProofSettings['nonces'];
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
 * Checks a DPoP proof as RFC 9449 section 4.3 lists it, one check at a time, each refusal with its own reason
 * (the log and the audit trail) and an `error_description` naming what is wrong (the client's to fix, never a
 * secret): one compact JWS (`malformed_dpop_proof`), `typ: dpop+jwt` (`dpop_typ_invalid`), an asymmetric
 * algorithm we accept: ES256, EdDSA, PS256 (`dpop_alg_refused`), a public `jwk` in its own header, never a
 * private one (`dpop_key_refused`), signed by it (`dpop_signature_invalid`), a printable `jti`
 * (`dpop_jti_invalid`), `htm` and `htu` naming this request (`dpop_htm_mismatch`, `dpop_htu_mismatch`), `iat`
 * within the window (`dpop_iat_out_of_window`), with an access token `ath` equal to its SHA-256
 * (`dpop_ath_mismatch`) and a key of the token's `cnf.jkt` (`dpop_key_mismatch`), and last, with
 * DPOP_NONCE=required, one of the gateway's current nonces (`use_dpop_nonce`: `dpop_nonce_missing`,
 * `dpop_nonce_invalid`), so that a nonce refusal means the proof is otherwise good and its retry with the nonce
 * succeeds. Throws `invalid_dpop_proof` (400; the callers at a resource make it the seed's 401). The jti is the
 * caller's to claim.
 *
 * @example
 * ```ts
 * const proof = await verifyDpopProof(request.headers.dpop, { method: 'POST', url: 'https://gw.example/api/v1/oauth/token', ...window });
 * proof.jkt; // bind the new token to this key
 * ```
 */
export async function verifyDpopProof(proof: string, check: DpopCheck): Promise<VerifiedDpopProof> {
  if (proof.length > MAX_PROOF_LENGTH || proof.split('.').length !== 3) throw refused('malformed_dpop_proof', 'The DPoP proof must be one compact JWS (three base64url parts)');
  const header = protectedHeader(proof);
  if (header.typ !== 'dpop+jwt') throw refused('dpop_typ_invalid', "The DPoP proof's typ must be dpop+jwt");
  if (!isAcceptedJwsAlg(header.alg)) throw refused('dpop_alg_refused', `The DPoP proof's alg must be one of ${ACCEPTED_JWS_ALGS.join(', ')}`);
  const jwk = header.jwk as Record<string, unknown> | undefined;
  if (!jwk || typeof jwk !== 'object' || Array.isArray(jwk) || hasPrivateMembers(jwk)) {
    throw refused('dpop_key_refused', "The DPoP proof's header must carry its public key as jwk, without private members");
  }
  let key: ProofKey;
  try {
    key = await proofKey(jwk, header.alg);
  } catch {
    throw refused('dpop_key_refused', `The DPoP proof's jwk is not a public key for ${header.alg}`);
  }
  const payload = await signedPayload(proof, key, check.now);
  if (!isValidJti(payload.jti)) throw refused('dpop_jti_invalid', "The DPoP proof's jti must be 1 to 128 printable ASCII characters, new for every proof");
  if (payload.htm !== check.method) throw refused('dpop_htm_mismatch', `The DPoP proof's htm must be ${check.method}, this request's method`);
  const urls = [check.url, ...(check.aliasUrls ?? [])];
  if (typeof payload.htu !== 'string' || !urls.some((url) => normalizeHtu(url) === normalizeHtu(payload.htu as string))) {
    throw refused('dpop_htu_mismatch', `The DPoP proof's htu must be ${urls.join(' or ')}, this request's URL without query or fragment`);
  }
  const now = Math.floor(check.now() / 1000);
  const iat = payload.iat;
  if (typeof iat !== 'number' || !Number.isInteger(iat) || iat < now - check.maxAgeSeconds || iat > now + check.maxFutureSeconds) {
    throw refused('dpop_iat_out_of_window', `The DPoP proof's iat must be an integer within ${check.maxAgeSeconds} seconds before and ${check.maxFutureSeconds} seconds after the server's time (${now})`);
  }
  if (check.accessToken !== undefined) {
    const expected = createHash('sha256').update(check.accessToken, 'ascii').digest('base64url');
    if (payload.ath !== expected) throw refused('dpop_ath_mismatch', "The DPoP proof's ath must be the base64url SHA-256 of the access token it comes with");
  }
  if (check.jkt !== undefined && key.jkt !== check.jkt) throw refused('dpop_key_mismatch', 'The DPoP proof is signed by another key than the one the token is bound to');
  if (check.nonces) {
    if (payload.nonce === undefined) throw errors.useDpopNonce('dpop_nonce_missing', 'The DPoP proof must carry a nonce: use the one in this answer\'s DPoP-Nonce header');
    if (!check.nonces.accepts(payload.nonce)) throw errors.useDpopNonce('dpop_nonce_invalid', "The DPoP proof's nonce is not current: use the one in this answer's DPoP-Nonce header");
  }
  return { jkt: key.jkt, jti: payload.jti, rememberUntil: new Date((iat + check.maxAgeSeconds + 1) * 1000), issuedAt: iat };
}

function refused(reason: AuthFailureReason, problem: string) {
  return errors.invalidDpopProof(reason, problem);
}

function protectedHeader(proof: string): ProtectedHeaderParameters {
  try {
    return decodeProtectedHeader(proof);
  } catch {
    throw refused('malformed_dpop_proof', "The DPoP proof's header is not base64url JSON");
  }
}

/**
 * The proof's claims, once its signature is verified by its own key. An `exp` or `nbf` it carries is honoured
 * (RFC 7519) as part of its freshness; the `iat` window is checked by the caller.
 */
async function signedPayload(proof: string, key: ProofKey, now: () => number): Promise<JWTPayload> {
  try {
    const options = { algorithms: [...ACCEPTED_JWS_ALGS], currentDate: new Date(now()) };
    return (key.keyObject ? verifyEs256Jwt(proof, key.keyObject, options) : await jwtVerify(proof, key.key, options)).payload;
  } catch (error) {
    const code = (error as { code?: string }).code;
    if (code === 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED') throw refused('dpop_signature_invalid', "The DPoP proof's signature does not verify with the jwk in its header");
    if (code === 'ERR_JWT_EXPIRED' || (code === 'ERR_JWT_CLAIM_VALIDATION_FAILED' && ['iat', 'nbf', 'exp'].includes(String((error as { claim?: unknown }).claim)))) {
      throw refused('dpop_iat_out_of_window', "The DPoP proof's iat, exp or nbf puts it outside its validity");
    }
    throw refused('malformed_dpop_proof', "The DPoP proof's payload must be a JSON object of claims");
  }
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
  /** Other URLs the listener publishes the same resource under (see DpopCheck). */
  aliasUrls?: readonly string[] | undefined;
  accessToken?: string;
  /** The bound token's `cnf.jkt` (see DpopCheck). */
  jkt?: string;
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
  const verified = await checkDpopProof(proof, request, settings);
  await spendDpopProof(verified, settings);
  return verified;
}

/** Spends an already verified proof's jti (for callers that verify first and spend once other checks pass). */
export async function spendDpopProof(verified: VerifiedDpopProof, settings: Pick<DpopProofSettings, 'replay'>): Promise<void> {
  const spent = await settings.replay.spend(dpopReplayKey(verified.jti), verified);
  if (spent === 'replayed') throw errors.invalidDpopProof('dpop_proof_replayed', 'The DPoP proof was used before: make a new proof, with a new jti, for every request');
  if (spent !== 'spent') throw errors.invalidDpopProof('replay_state_lost', 'The DPoP proof was made before the gateway last lost track of spent proofs: make a new proof');
}

/** The replay-store key of a proof's jti. */
export function dpopReplayKey(jti: string): string {
  return `dpop:${createHash('sha256').update(jti).digest('base64url')}`;
}

/** Verifies a proof without spending it (see spendDpopProof). */
export function checkDpopProof(proof: string, request: DpopRequest, settings: Omit<DpopProofSettings, 'replay'>): Promise<VerifiedDpopProof> {
  return verifyDpopProof(proof, { ...request, maxAgeSeconds: settings.maxAgeSeconds, maxFutureSeconds: settings.maxFutureSeconds, nonces: settings.nonces, now: settings.now });
}

/**
 * The `DPoP` header as sent: undefined when absent; refused when sent twice (RFC 9449 section 4.3: exactly one
 * proof), which Node hands over joined by a comma.
 */
export function readDpopHeader(header: string | string[] | undefined): string | undefined {
  if (header === undefined) return undefined;
  if (Array.isArray(header) || header.includes(',')) throw errors.invalidDpopProof('malformed_dpop_proof', 'Exactly one DPoP header is allowed');
  return header.trim();
}

/**
 * The URLs a request for `path` reached its listener by: the listener's public URL and its aliases; what a DPoP
 * proof's `htu` may name.
 *
 * @example
 * ```ts
 * listenerUrls({ baseUrl: 'https://gw.example:8443' }, '/api/v1/oauth/token'); // { url: 'https://gw.example:8443/api/v1/oauth/token' }
 * ```
 */
export function listenerUrls(context: Pick<RequestContext, 'baseUrl' | 'baseUrlAliases'>, path: string): { url: string; aliasUrls?: readonly string[] } {
  const url = context.baseUrl + path;
  return context.baseUrlAliases?.length ? { url, aliasUrls: context.baseUrlAliases.map((base) => base + path) } : { url };
}
