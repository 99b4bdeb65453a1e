import type { IntrospectionRequestForm, IntrospectionResponse } from '@partner-gateway/contract/oauth';
import type { AuthDependencies } from '../auth/auth-dependencies.js';
import { checkCertificateBinding } from '../auth/binding/certificate-binding.js';
import { authorizeOAuthClient } from '../auth/steps/authorize-oauth-client.js';
import type { AccessTokenClaims } from '../auth/tokens/access-tokens.js';
import { familyAdmits } from '../auth/tokens/token-family-state.js';
import { AppError, errors } from '../errors.js';
import type { Partner } from '../partners/partner.js';
import type { RequestContext } from '../request-context.js';

export type TokenIntrospectionDependencies = Pick<
  AuthDependencies,
  'partners' | 'guard' | 'passwords' | 'replay' | 'remoteJwks' | 'assertionAudiences' | 'trustedCas' | 'now' | 'tokens' | 'families'
>;

/**
 * RFC 7662 introspection, for the caller's own tokens only: another partner's token, a revoked, expired,
 * unknown or unparseable one are all `{"active": false}` and nothing else, so that no partner learns anything
 * of another's tokens. An active answer names the login as `client_id` and `sub`, and `cnf.jkt` for a bound token.
 * The audit entry learns whether the token was active.
 *
 * @example
 * ```ts
 * const answer = await introspectToken({ token }, context, deps); // { active: false } for anything not the caller's
 * ```
 */
export async function introspectToken(form: IntrospectionRequestForm, context: RequestContext, deps: TokenIntrospectionDependencies): Promise<IntrospectionResponse> {
  const { partner } = await authorizeOAuthClient(form, context, deps);
  if (!form.token) throw errors.invalidRequest('token is missing');
  const claims = await ownLiveToken(form.token, partner, deps);
  if (claims) checkCertificateBinding(claims, context.certificate?.thumbprint);
  context.audit.details = { ...context.audit.details, active: claims !== undefined };
  if (!claims) return { active: false };
  return {
    active: true,
    client_id: claims.login,
    sub: claims.login,
    iss: deps.tokens.issuer,
    aud: deps.tokens.audience,
    iat: claims.issuedAt,
    exp: claims.expiresAt,
    token_type: claims.jkt ? 'DPoP' : 'Bearer',
    ...(claims.jkt || claims.x5t ? { cnf: { ...(claims.jkt ? { jkt: claims.jkt } : {}), ...(claims.x5t ? { 'x5t#S256': claims.x5t } : {}) } } : {}),
  };
}

/** The claims of `token` when it is `partner`'s and would be accepted now (signature, expiry, generation, family). */
export async function ownLiveToken(token: string, partner: Partner, deps: Pick<TokenIntrospectionDependencies, 'tokens' | 'families'>): Promise<AccessTokenClaims | undefined> {
  let claims: AccessTokenClaims;
  try {
    claims = await deps.tokens.verify(token);
  } catch (error) {
    if (error instanceof AppError && error.status === 401) return undefined;
    throw error;
  }
  if (claims.partnerId !== partner.id || claims.generation !== partner.tokenGeneration) return undefined;
  const family = await deps.families.find(claims.familyId);
  if (!familyAdmits(claims, family, partner.id)) return undefined;
  return claims;
}
