import { errors } from '../../errors.js';
import type { Partner } from '../../partners/partner.js';
import type { AuthDependencies } from '../auth-dependencies.js';
import { requireAuthMethod } from './require-auth-method.js';

/**
 * Login and API password: the password is checked with argon2 against the partner's hash, or against a
 * dummy hash for an unknown login, so both cost the same. The check holds a place in the brute-force count
 * while it runs (see BruteForceGuard.attempt); it resets nothing: only the whole call's success does
 * (BruteForceGuard.succeeded, once status and address are checked too). A partner whose authMethods lack
 * `password` is refused (password_not_allowed) only after argon2 has run, and its right password is never
 * remembered, so that neither the answer nor its cost tells its right password from a wrong one.
 */
export async function authenticateWithPassword(
  login: string,
  password: string,
  clientAddress: string,
  deps: Pick<AuthDependencies, 'partners' | 'guard' | 'passwords'>,
  options: { remember?: boolean } = {},
): Promise<Partner> {
  // PostgreSQL text cannot hold U+0000, so no partner's login contains it, and looking such a login up or
  // counting failures under it would only fail the query: a 400 where every other unknown login gets the
  // 401. It is answered as an unknown login, after the same dummy argon2 verification so that it costs the
  // same, and its failures count against the address alone, there being no partner's login to protect.
  const storable = !login.includes('\0');
  const partner = storable ? await deps.partners.findByLogin(login) : undefined;
  const throttledLogin = storable ? login : undefined;
  // A key-only partner's right password is never remembered: a remembered success answers faster.
  options = { ...options, remember: options.remember === true && partner !== undefined && partner.authMethods.includes('password') };
  if (options.remember && partner) {
    // A remembered success costs no argon2, so it takes no place in the count; but during a lock it is refused
    // like any password, so that no answer tells a right password from a wrong one.
    await deps.guard.check(clientAddress, throttledLogin, partner);
    if (deps.passwords.recall(partner, password)) return partner;
  }
  const remembered = options.remember && partner ? () => deps.passwords.recall(partner, password) : undefined;
  // For a key-only partner every password counts as a failure, right or wrong: were a right one not counted,
  // whether the next guesses got locked out would tell it apart.
  const passwordAllowed = partner === undefined || partner.authMethods.includes('password');
  let right = false;
  const valid = await deps.guard.attempt(
    clientAddress,
    throttledLogin,
    partner,
    async () => {
      right = await deps.passwords.verify(partner, password, options);
      return right && passwordAllowed;
    },
    remembered ? { remembered } : {},
  );
  if (!partner) throw errors.unauthorized('unknown_partner');
  if (valid) return partner;
  if (right) requireAuthMethod(partner, 'password');
  throw errors.unauthorized('wrong_password');
}
