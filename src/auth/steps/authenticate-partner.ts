import { AppError } from '../../errors.js';
import type { Partner } from '../../partners/partner.js';
import type { RequestContext } from '../../request-context.js';
import type { AuthDependencies } from '../auth-dependencies.js';
import { asksForDpopNonce } from '../binding/dpop-challenge.js';
import { authenticateWithEncryptedPassword } from '../credentials/authenticate-with-encrypted-password.js';
import { authenticateWithToken, tokenPresentation, type TokenHolder } from './authenticate-with-token.js';
import type { TokenPresentation } from '../binding/check-token-binding.js';
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
  return (await authenticateCountedToken(credentials.token, credentials.partnerName, tokenPresentation(credentials.scheme, context, path), context.clientAddress, deps)).partner;
}

/**
 * authenticateWithToken, a refusal counted: a valid token is never throttled (it is not a guess); each refused one
 * counts under the address's garbage key, which never locks a password. A request for the DPoP nonce is no
 * refusal of the token.
 *
 * @example
 * ```ts
 * const { partner, claims } = await authenticateCountedToken(token, undefined, tokenPresentation('bearer', context, path), context.clientAddress, deps);
 * ```
 */
export async function authenticateCountedToken(
  token: string,
  partnerName: string | undefined,
  presentation: TokenPresentation,
  clientAddress: string,
  deps: Pick<AuthDependencies, 'tokens' | 'partners' | 'families' | 'dpop' | 'guard'>,
): Promise<TokenHolder> {
  try {
    return await authenticateWithToken(token, partnerName, presentation, deps);
  } catch (error) {
    if (error instanceof AppError && error.status === 401 && !asksForDpopNonce(error)) return deps.guard.failCheap(error, clientAddress);
    throw error;
  }
}
