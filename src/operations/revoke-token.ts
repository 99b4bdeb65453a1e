import type { RevocationRequestForm } from '@partner-gateway/contract/oauth';
import { checkCertificateBinding } from '../auth/binding/certificate-binding.js';
import { authorizeOAuthClient } from '../auth/steps/authorize-oauth-client.js';
import { isRefreshTokenShaped, ownRefreshTokenFamily } from '../auth/tokens/refresh-tokens.js';
import { revokeFamilyOf } from '../auth/tokens/token-family-state.js';
import type { Partner } from '../partners/partner.js';
import { errors } from '../errors.js';
import type { RequestContext } from '../request-context.js';
import { ownLiveToken, type TokenIntrospectionDependencies } from './introspect-token.js';

/**
 * RFC 7009 revocation: the caller's own live token has its family revoked, which every instance learns through
 * the change feed. For an access token that is the token and, for a login's, the refresh tokens of the login it
 * came from; for a refresh token, the login: its refresh tokens and every access token issued in it. Anything
 * else (another partner's token, an expired, revoked or unknown one) changes nothing, and the answer is the same
 * 200. `token_type_hint` is not needed: the two kinds cannot be mistaken for each other (an access token is a
 * JWT, a refresh token 43 base64url characters), so any hint, wrong, unknown or none, finds the token. Whether
 * something was revoked, and which kind, goes to the audit entry only.
 *
 * @example
 * ```ts
 * await revokeToken({ token, token_type_hint: 'refresh_token' }, context, deps);
 * ```
 */
export async function revokeToken(form: RevocationRequestForm, context: RequestContext, deps: TokenIntrospectionDependencies): Promise<void> {
  const { partner } = await authorizeOAuthClient(form, context, deps);
  if (!form.token) throw errors.invalidRequest('token is missing');
  const revoked = await revokeOwnToken(form.token, partner, context, deps);
  context.audit.details = { ...context.audit.details, revoked: revoked !== undefined, ...(revoked ? { tokenType: revoked } : {}) };
}

/** Revokes `token`'s family when it is one of `partner`'s live tokens, and says which kind it was. */
async function revokeOwnToken(token: string, partner: Partner, context: RequestContext, deps: TokenIntrospectionDependencies): Promise<'access_token' | 'refresh_token' | undefined> {
  if (isRefreshTokenShaped(token)) {
    const family = await ownRefreshTokenFamily(token, partner, deps.families, deps.now());
    if (!family) return undefined;
    await deps.families.revoke(family.id, 'revocation');
    return 'refresh_token';
  }
  const claims = await ownLiveToken(token, partner, deps);
  if (!claims) return undefined;
  checkCertificateBinding(claims, context.certificate?.thumbprint);
  await revokeFamilyOf(claims, deps.families, 'revocation');
  return 'access_token';
}
