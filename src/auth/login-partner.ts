import type { PartnerRepository } from '../partners/partner-repository.js';
import type { AccessTokens, IssuedToken } from './access-tokens.js';
import { authenticateWithPassword } from './authenticate-partner.js';
import { checkIpAllowed } from './check-ip-allowed.js';
import { checkPartnerActive } from './check-partner-active.js';
import { requireParameters } from './require-parameters.js';

export interface LoginInput {
  login?: unknown;
  password?: unknown;
}

export interface LoginDependencies {
  partners: PartnerRepository;
  tokens: AccessTokens;
}

/**
 * The login operation: 422 for a missing login or password, 401 for an unknown login or a wrong password
 * (equal cost), then, only once the password is proven, 403 for a blocked partner or a foreign address.
 */
export async function loginPartner(input: LoginInput, clientAddress: string, deps: LoginDependencies): Promise<IssuedToken> {
  const { login, password } = requireParameters(input, ['login', 'password']);
  const partner = await authenticateWithPassword(login, password, deps.partners);
  checkPartnerActive(partner);
  checkIpAllowed(partner, clientAddress);
  return deps.tokens.issue(partner);
}
