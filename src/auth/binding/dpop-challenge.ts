import { AppError, errors } from '../../errors.js';

/** The `error` of a DPoP-scheme challenge (RFC 9449 sections 7.1 and 9, RFC 6750 section 3). */
export type DpopChallengeError = 'invalid_token' | 'invalid_dpop_proof' | 'use_dpop_nonce';

/**
 * `WWW-Authenticate: DPoP error="…"`, with `error_description` when there is one (what is wrong with the proof:
 * never a secret). The description is a quoted-string of printable ASCII: anything else becomes `?`.
 *
 * @example
 * ```ts
 * dpopChallenge('invalid_dpop_proof', "The DPoP proof's typ must be dpop+jwt");
 * // { 'www-authenticate': 'DPoP error="invalid_dpop_proof", error_description="The DPoP proof\'s typ must be dpop+jwt"' }
 * ```
 */
export function dpopChallenge(error: DpopChallengeError, description?: string): Record<string, string> {
  const quoted = description === undefined ? '' : `, error_description="${description.replace(/[^\x20-\x7e]/g, '?').replace(/["\\]/g, '\\$&')}"`;
  return { 'www-authenticate': `DPoP error="${error}"${quoted}` };
}

export const DPOP_INVALID_TOKEN = dpopChallenge('invalid_token');

/**
 * Whether a refusal only asks for the gateway's DPoP nonce (RFC 9449 section 8): a protocol step of a proof
 * otherwise good, by the token's own key, not a guess to count against the client's address.
 */
export function asksForDpopNonce(error: AppError): boolean {
  return error.extra.reason === 'dpop_nonce_missing' || error.extra.reason === 'dpop_nonce_invalid';
}

/**
 * A proof refusal (`invalid_dpop_proof`, `use_dpop_nonce`) as the seed's operations and the resource answer it:
 * the seed's 401 and body, the proof's own reason for the log and the audit trail, and the challenge naming the
 * problem. Any other error is given back as it is.
 *
 * @example
 * ```ts
 * try { await checkDpopProof(proof, request, settings); } catch (error) { throw asSeedProofRefusal(error); }
 * ```
 */
export function asSeedProofRefusal(error: unknown): unknown {
  if (!(error instanceof AppError) || (error.code !== 'invalid_dpop_proof' && error.code !== 'use_dpop_nonce')) return error;
  return errors.unauthorized(error.extra.reason ?? 'malformed_dpop_proof', dpopChallenge(error.code, error.extra.oauthDescription));
}
