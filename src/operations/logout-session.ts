import { BEARER_REGEXP } from '@partner-gateway/contract/patterns';
import { errors } from '../errors.js';
import type { AuthenticationDependencies } from '../auth/steps/authenticate-partner.js';
import { authenticateWithToken } from '../auth/steps/authenticate-with-token.js';
import type { TokenPresentation } from '../auth/binding/check-token-binding.js';
import { revokeFamilyOf } from '../auth/tokens/token-family-state.js';

/** `Authorization: DPoP <token>`: a bound token logs out with a proof, as it calls banks. */
const DPOP_SCHEME_REGEXP = /^DPoP +(\S+) *$/i;

/**
 * The logout operation: the token's family is revoked, so that access token and every refresh token
 * descended from its login stop working at once. A DPoP-bound token comes as `Authorization: DPoP` with a
 * proof for the logout URL.
 */
export async function logoutSession(
  authorization: string | undefined,
  dpop: string | string[] | undefined,
  deps: Pick<AuthenticationDependencies, 'tokens' | 'partners' | 'families' | 'dpop'> & { urls: { logout: string } },
  certificate?: string,
): Promise<string> {
  const bound = DPOP_SCHEME_REGEXP.exec(authorization ?? '')?.[1];
  const token = bound ?? BEARER_REGEXP.exec(authorization ?? '')?.[1];
  if (!token) throw errors.unauthorized('malformed_authorization', { 'www-authenticate': 'Bearer error="invalid_token"' });
  const presentation: TokenPresentation = bound ? { scheme: 'dpop', proof: dpop, method: 'POST', url: deps.urls.logout, certificate } : { scheme: 'bearer', certificate };
  const { partner, claims } = await authenticateWithToken(token, undefined, deps, presentation);
  await revokeFamilyOf(claims, deps.families, 'logout');
  return partner.login;
}
