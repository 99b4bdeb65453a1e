import { AppError, errors } from '../../errors.js';
import type { AuthDependencies, AuthenticatedClient } from '../auth-dependencies.js';
import { authenticateWithPassword } from './authenticate-with-password.js';
import { BASIC_CHALLENGE } from './read-client-credentials.js';

/**
 * `client_secret_basic` and `client_secret_post` (RFC 6749 section 2.3.1): the login and API password, checked
 * exactly as login checks them (authenticateWithPassword: the same argon2, the same brute-force counting, a
 * key-only partner's password refused only once evaluated). Every refusal is `invalid_client` (401, with
 * `WWW-Authenticate: Basic` for Basic), 429 when locked.
 *
 * @example
 * ```ts
 * const client = await authenticateWithClientSecret({ method: 'client_secret_post', login: 'acme', secret }, context.clientAddress, deps);
 * ```
 */
export async function authenticateWithClientSecret(
  credentials: { method: 'client_secret_basic' | 'client_secret_post'; login: string; secret: string },
  clientAddress: string,
  deps: Pick<AuthDependencies, 'partners' | 'guard' | 'passwords'>,
): Promise<AuthenticatedClient> {
  try {
    return { partner: await authenticateWithPassword(credentials.login, credentials.secret, clientAddress, deps), method: credentials.method };
  } catch (error) {
    if (error instanceof AppError && error.code === 'unauthorized' && error.extra.reason) {
      throw errors.invalidClient(error.extra.reason, credentials.method === 'client_secret_basic' ? BASIC_CHALLENGE : undefined);
    }
    throw error;
  }
}
