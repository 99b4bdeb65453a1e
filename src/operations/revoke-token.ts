import type { RevocationRequestForm } from '@partner-gateway/contract/oauth';
import { checkCertificateBinding } from '../auth/binding/certificate-binding.js';
import { authorizeOAuthClient } from '../auth/steps/authorize-oauth-client.js';
import { revokeFamilyOf } from '../auth/tokens/token-family-state.js';
import { errors } from '../errors.js';
import type { RequestContext } from '../request-context.js';
import { ownLiveToken, type TokenIntrospectionDependencies } from './introspect-token.js';

/**
 * RFC 7009 revocation: the caller's own live token has its family revoked (that token, and the refresh tokens
 * of the login it came from), which every instance learns through the change feed. Anything else (another
 * partner's token, an expired, revoked or unknown one) changes nothing, and the answer is the same 200.
 * Whether something was revoked goes to the audit entry only.
 *
 * @example
 * ```ts
 * await revokeToken({ token }, context, deps);
 * ```
 */
export async function revokeToken(form: RevocationRequestForm, context: RequestContext, deps: TokenIntrospectionDependencies): Promise<void> {
  const { partner } = await authorizeOAuthClient(form, context, deps);
  if (!form.token) throw errors.invalidRequest('token is missing');
  const claims = await ownLiveToken(form.token, partner, deps);
  if (claims) {
    checkCertificateBinding(claims, context.certificate?.thumbprint);
    await revokeFamilyOf(claims, deps.families, 'revocation');
  }
  context.audit.details = { ...context.audit.details, revoked: claims !== undefined };
}
