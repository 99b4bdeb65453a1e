import type { AuthMethod } from '@partner-gateway/contract/admin-partners';
import { errors } from '../../errors.js';
import type { Partner } from '../../partners/partner.js';

/**
 * Refuses a partner whose `authMethods` do not include `method`: a key-only partner's password is refused on
 * every path (login, the encrypted-password banks call, client_secret_*), and a password-only partner's key.
 * Called only once the credential has been evaluated in full (argon2 run, assertion verified), so that the
 * answer and its timing are the same for a right and a wrong secret: the policy is never told to a guesser.
 * The refusal is the seed's 401; the OAuth endpoints turn it into `invalid_client`.
 *
 * @example
 * ```ts
 * requireAuthMethod(partner, 'private_key_jwt'); // throws unless partner.authMethods includes it
 * ```
 */
export function requireAuthMethod(partner: Pick<Partner, 'authMethods'>, method: AuthMethod): void {
  if (!partner.authMethods.includes(method)) throw errors.unauthorized(method === 'password' ? 'password_not_allowed' : 'private_key_jwt_not_allowed');
}
