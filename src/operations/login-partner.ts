import type { PartnerRepository } from '../partners/partner-repository.js';
import type { PasswordVerifier } from '../partners/password-verifier.js';
import type { BruteForceGuard } from '../auth/steps/brute-force-guard.js';
import type { AccessTokens } from '../auth/tokens/access-tokens.js';
import { authenticateWithPassword } from '../auth/steps/authenticate-with-password.js';
import { checkIpAllowed } from '../auth/steps/check-ip-allowed.js';
import { checkPartnerActive } from '../auth/steps/check-partner-active.js';
import { startTokenFamily } from '../auth/tokens/refresh-tokens.js';
import { requireParameters } from '../auth/steps/require-parameters.js';
import type { TokenFamilyRepository } from '../auth/tokens/token-family-repository.js';

export interface LoginInput {
  login?: unknown;
  password?: unknown;
}

export interface LoginDependencies {
  partners: PartnerRepository;
  guard: BruteForceGuard;
  passwords: PasswordVerifier;
  tokens: AccessTokens;
  families: TokenFamilyRepository;
  refreshTtlSeconds: number;
  now: () => number;
}

/** What login and refresh answer: an access token and the refresh token that renews it. */
export interface Session {
  accessToken: string;
  expiresIn: number;
  refreshToken: string;
  refreshExpiresIn: number;
  partnerLogin: string;
}

/**
 * The login operation: 422 for a missing login or password, 401 for an unknown login or a wrong password
 * (equal cost), then, only once the password is proven, 403 for a blocked partner or a foreign address.
 * Each login starts a new token family.
 */
export async function loginPartner(input: LoginInput, clientAddress: string, deps: LoginDependencies): Promise<Session> {
  const { login, password } = requireParameters(input, ['login', 'password']);
  const partner = await authenticateWithPassword(login, password, clientAddress, deps);
  checkPartnerActive(partner);
  checkIpAllowed(partner, clientAddress);
  await deps.guard.succeeded(clientAddress, partner);
  const refresh = await startTokenFamily(partner, deps.families, deps.refreshTtlSeconds, deps.now());
  const access = await deps.tokens.issue(partner, refresh.familyId);
  return { ...access, refreshToken: refresh.refreshToken, refreshExpiresIn: refresh.refreshExpiresIn, partnerLogin: partner.login };
}
