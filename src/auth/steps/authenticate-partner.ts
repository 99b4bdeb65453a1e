import { AppError } from '../../errors.js';
import type { Partner } from '../../partners/partner.js';
import type { RequestContext } from '../../request-context.js';
import type { AuthDependencies } from '../auth-dependencies.js';
import { asksForDpopNonce } from '../binding/dpop-challenge.js';
import { authenticateWithEncryptedPassword } from '../credentials/authenticate-with-encrypted-password.js';
import { authenticateWithToken, tokenPresentation } from './authenticate-with-token.js';
import type { BanksCredentials } from './read-banks-credentials.js';

/**
 * Proves who is calling a partner resource (the banks call), by its encrypted password or its access token
 * (bound ones with their proof for `path`, or their certificate), or throws the 401. It says nothing about status,
 * address or reward type: those are the next steps, and they run only once this one has succeeded.
 */
export async function authenticatePartner(
  credentials: BanksCredentials,
  context: RequestContext,
  path: string,
  deps: Pick<AuthDependencies, 'partners' | 'guard' | 'passwords' | 'replay' | 'decryptPassword' | 'tokens' | 'families' | 'dpop'>,
): Promise<Partner> {
  if (credentials.scheme === 'password') return authenticateWithEncryptedPassword(credentials.partnerName, credentials.jwe, context.clientAddress, deps);
  try {
    return (await authenticateWithToken(credentials.token, credentials.partnerName, tokenPresentation(credentials.scheme, context, path), deps)).partner;
  } catch (error) {
    // A valid token is never throttled (it is not a guess); each refused one counts under the address's
    // garbage key, which never locks a password. A request for the DPoP nonce is no refusal of the token.
    if (error instanceof AppError && error.status === 401 && !asksForDpopNonce(error)) return deps.guard.failCheap(error, context.clientAddress);
    throw error;
  }
}
