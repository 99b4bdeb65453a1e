import { errors } from '../../errors.js';
import type { DpopProofSettings } from '../auth-dependencies.js';
import { checkDpopProof, readDpopHeader, spendDpopProof, type DpopRequest } from './verify-dpop-proof.js';
import type { AccessTokenClaims } from '../tokens/access-tokens.js';
import { checkCertificateBinding } from './certificate-binding.js';
import { DPOP_INVALID_TOKEN, asSeedProofRefusal } from './dpop-challenge.js';

/** How a token came: as `Authorization: Bearer`, or as `Authorization: DPoP` with the request's `DPoP` header. */
export type TokenPresentation = ({ scheme: 'bearer' } | ({ scheme: 'dpop'; proof: string | string[] | undefined } & Omit<DpopRequest, 'accessToken'>)) & {
  /** The thumbprint of the connection's client certificate, if any (a certificate-bound token needs the same one). */
  certificate?: string | undefined;
};

/**
 * RFC 9449 section 7: a token bound to a key (`cnf.jkt`) is accepted only as `Authorization: DPoP` with a proof
 * for this very request (method, URL without query, `ath` = the token's SHA-256, fresh `iat`, a jti never seen
 * by any instance) signed by that key; a bound token sent as Bearer, or an unbound one sent as DPoP, is refused.
 * A bearer token costs one property check here: proofs are verified only for bound tokens. Every refusal is the
 * seed's 401 with `WWW-Authenticate: DPoP error="invalid_token"` (or `"invalid_dpop_proof"` or `"use_dpop_nonce"`
 * with an `error_description` naming the proof's fault) and its own reason.
 */
export async function checkTokenBinding(claims: AccessTokenClaims, token: string, presentation: TokenPresentation, dpop: DpopProofSettings): Promise<void> {
  checkCertificateBinding(claims, presentation.certificate);
  if (presentation.scheme === 'bearer') {
    if (claims.jkt !== undefined) throw errors.unauthorized('dpop_bound_token_as_bearer', DPOP_INVALID_TOKEN);
    return;
  }
  if (claims.jkt === undefined) throw errors.unauthorized('invalid_token', DPOP_INVALID_TOKEN);
  try {
    const header = readDpopHeader(presentation.proof);
    if (header === undefined) throw errors.invalidDpopProof('dpop_required', 'The DPoP proof is missing: a DPoP-bound token comes with a DPoP header');
    const proof = await checkDpopProof(header, { method: presentation.method, url: presentation.url, aliasUrls: presentation.aliasUrls, accessToken: token, jkt: claims.jkt }, dpop);
    await spendDpopProof(proof, dpop);
  } catch (error) {
    throw asSeedProofRefusal(error);
  }
}
