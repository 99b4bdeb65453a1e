import type { AuthDependencies } from '../auth/auth-dependencies.js';
import { authenticateWithToken, tokenPresentation } from '../auth/steps/authenticate-with-token.js';
import { readAccessToken } from '../auth/steps/read-banks-credentials.js';
import { invalidTokenHeader } from '../auth/tokens/access-tokens.js';
import { revokeFamilyOf } from '../auth/tokens/token-family-state.js';
import { errors } from '../errors.js';
import type { RequestContext } from '../request-context.js';

/**
 * The logout operation: the token's family is revoked, so that access token and every refresh token descended
 * from its login stop working at once, on every instance. A DPoP-bound token comes as `Authorization: DPoP` with
 * a proof for the logout URL; a certificate-bound one over a connection with its certificate. The context's audit
 * entry learns the partner.
 *
 * @example
 * ```ts
 * await logoutSession(context, deps);
 * ```
 */
export async function logoutSession(
  context: RequestContext,
  deps: Pick<AuthDependencies, 'tokens' | 'partners' | 'families' | 'dpop'> & { paths: { logout: string } },
): Promise<void> {
  const presented = context.authorization === undefined ? undefined : readAccessToken(context.authorization);
  if (!presented) throw errors.unauthorized('malformed_authorization', invalidTokenHeader);
  const { partner, claims } = await authenticateWithToken(presented.token, undefined, tokenPresentation(presented.scheme, context, deps.paths.logout), deps);
  await revokeFamilyOf(claims, deps.families, 'logout');
  context.audit.partner = partner.login;
}
