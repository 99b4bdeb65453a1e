import type { RevocationRequestForm } from '@partner-gateway/contract/oauth';
import { errors } from '../errors.js';
import { authorizeOAuthClient, type OAuthRequestContext } from '../auth/steps/authorize-oauth-client.js';
import { checkCertificateBinding } from '../auth/binding/check-certificate-binding.js';
import { revokeFamilyOf } from '../auth/tokens/token-family-state.js';
import { ownLiveToken, type TokenIntrospectionDependencies } from './introspect-token.js';

/**
 * RFC 7009 revocation: the caller's own live token has its family revoked (that token, and the refresh tokens
 * of the login it came from), which every instance learns through the change feed. Anything else (another
 * partner's token, an expired, revoked or unknown one) changes nothing, and the answer is the same 200.
 * Returns whether something was revoked (for the audit trail only).
 */
export async function revokeToken(form: RevocationRequestForm, context: OAuthRequestContext, deps: TokenIntrospectionDependencies): Promise<boolean> {
  const { partner } = await authorizeOAuthClient(form, context, deps);
  if (!form.token) throw errors.invalidRequest('token is missing');
  const claims = await ownLiveToken(form.token, partner, deps);
  if (!claims) return false;
  checkCertificateBinding(claims, context.certificate?.thumbprint);
  await revokeFamilyOf(claims, deps.families, 'revocation');
  return true;
}
