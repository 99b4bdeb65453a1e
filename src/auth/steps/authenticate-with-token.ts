import { AppError, errors } from '../../errors.js';
import type { Partner } from '../../partners/partner.js';
import { invalidTokenHeader, type AccessTokenClaims } from '../tokens/access-tokens.js';
import { familyAdmits } from '../tokens/token-family-state.js';
import type { AuthDependencies } from '../auth-dependencies.js';
import { checkTokenBinding, type TokenPresentation } from '../binding/check-token-binding.js';
import { DPOP_INVALID_TOKEN } from '../binding/dpop-challenge.js';
import { listenerUrls } from '../binding/verify-dpop-proof.js';
import type { RequestContext } from '../../request-context.js';

/** Who a token authenticated, and what the token says (logout revokes its family). */
export interface TokenHolder {
  partner: Partner;
  claims: AccessTokenClaims;
}

/**
 * An access token: a valid signature is not enough. Its binding must match how it came (checkTokenBinding: a
 * DPoP-bound token only with a proof of its key), the partner must still exist with the token generation
 * the token was issued under (blocking, deleting and a new password move it on), and the token's family
 * must not be revoked (logout, refresh-token reuse, revocation; familyAdmits).
 */
export function authenticateWithToken(
  token: string,
  partnerName: string | undefined,
  presentation: TokenPresentation,
  deps: Pick<AuthDependencies, 'tokens' | 'partners' | 'families' | 'dpop'>,
): Promise<TokenHolder> {
  // Not an async function: a bearer token's check is returned as it is, without a promise wrapping a promise.
  if (presentation.scheme === 'bearer') return checkToken(token, partnerName, presentation, deps);
  return checkToken(token, partnerName, presentation, deps).catch((error: unknown) => {
    // A token sent with the DPoP scheme is refused with the DPoP challenge (RFC 9449 section 7.1).
    if (error instanceof AppError && error.status === 401 && error.extra.headers?.['www-authenticate']?.startsWith('Bearer')) {
      throw errors.unauthorized(error.extra.reason ?? 'invalid_token', DPOP_INVALID_TOKEN);
    }
    throw error;
  });
}

async function checkToken(
  token: string,
  partnerName: string | undefined,
  presentation: TokenPresentation,
  deps: Pick<AuthDependencies, 'tokens' | 'partners' | 'families' | 'dpop'>,
): Promise<TokenHolder> {
  const claims = await deps.tokens.verify(token);
  // The bearer path's common case (an unbound token as Bearer) costs two property checks, not an await. A
  // certificate-bound token (x5t) must reach checkTokenBinding too: it compares the connection's certificate.
  if (presentation.scheme !== 'bearer' || claims.jkt !== undefined || claims.x5t !== undefined) await checkTokenBinding(claims, token, presentation, deps.dpop);
  const [partner, family] = await Promise.all([deps.partners.findById(claims.partnerId), deps.families.find(claims.familyId)]);
  if (!partner) throw errors.unauthorized('unknown_partner', invalidTokenHeader);
  if (partner.tokenGeneration !== claims.generation || !familyAdmits(claims, family, partner.id)) {
    throw errors.unauthorized('token_revoked', invalidTokenHeader);
  }
  if (partnerName !== undefined && partnerName !== partner.login) {
    throw errors.unauthorized('partner_mismatch', invalidTokenHeader);
  }
  // The cached partner and claims themselves, not a copy merging them: a copy of every field per call was the
  // bearer path's largest function of its own (3.4 % of the serving thread, docs/performance.md).
  return { partner, claims };
}

/**
 * How a token came with a request: its Authorization scheme, the request's DPoP proof for `method` (POST unless named) on `path` of the
 * listener's public URL (what its `htu` must name), and the connection's certificate.
 *
 * @example
 * ```ts
 * await authenticateWithToken(token, undefined, tokenPresentation('dpop', context, LOGOUT_PATH), deps);
 * ```
 */
export function tokenPresentation(
  scheme: 'bearer' | 'dpop',
  context: Pick<RequestContext, 'dpop' | 'certificate' | 'baseUrl' | 'baseUrlAliases'>,
  path: string,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' = 'POST',
): TokenPresentation {
  const certificate = context.certificate?.thumbprint;
  return scheme === 'bearer' ? { scheme, certificate } : { scheme, proof: context.dpop, method, ...listenerUrls(context, path), certificate };
}
