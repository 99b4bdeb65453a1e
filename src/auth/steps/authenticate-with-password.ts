import { errors } from '../../errors.js';
import type { Partner } from '../../partners/partner.js';
import type { AuthenticationDependencies } from './authenticate-partner.js';

/**
 * Login and API password: the password is checked with argon2 against the partner's hash, or against a
 * dummy hash for an unknown login, so both cost the same.
 */
export async function authenticateWithPassword(
  login: string,
  password: string,
  clientAddress: string,
  deps: Pick<AuthenticationDependencies, 'partners' | 'guard' | 'passwords'>,
  options: { remember?: boolean } = {},
): Promise<Partner> {
  // PostgreSQL text cannot hold U+0000, so no partner's login contains it, and looking such a login up or
  // counting failures under it would only fail the query: a 400 where every other unknown login gets the
  // 401. It is answered as an unknown login, after the same dummy argon2 verification so that it costs the
  // same, and its failures count against the address alone, there being no partner's login to protect.
  const storable = !login.includes('\0');
  const partner = storable ? await deps.partners.findByLogin(login) : undefined;
  const throttledLogin = storable ? login : undefined;
  // Locked callers are refused before the (deliberately slow) password check.
  await deps.guard.check(clientAddress, throttledLogin, partner);
  const valid = await deps.passwords.verify(partner, password, options);
  if (!partner) return deps.guard.fail(errors.unauthorized('unknown_partner'), clientAddress, throttledLogin);
  if (!valid) return deps.guard.fail(errors.unauthorized('wrong_password'), clientAddress, login, partner);
  await deps.guard.succeeded(clientAddress, login);
  return partner;
}
