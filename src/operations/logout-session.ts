import { BEARER_REGEXP } from '@partner-gateway/contract/patterns';
import { errors } from '../errors.js';
import type { AuthenticationDependencies } from '../auth/steps/authenticate-partner.js';
import { authenticateWithToken } from '../auth/steps/authenticate-with-token.js';

/**
 * The logout operation: the bearer token's family is revoked, so that access token and every refresh token
 * descended from its login stop working at once.
 */
export async function logoutSession(authorization: string | undefined, deps: Pick<AuthenticationDependencies, 'tokens' | 'partners' | 'families'>): Promise<string> {
  const token = BEARER_REGEXP.exec(authorization ?? '')?.[1];
  if (!token) throw errors.unauthorized('malformed_authorization', { 'www-authenticate': 'Bearer error="invalid_token"' });
  const partner = await authenticateWithToken(token, undefined, deps);
  await deps.families.revoke(partner.familyId, 'logout');
  return partner.login;
}
