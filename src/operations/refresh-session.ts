import { errors } from '../errors.js';
import { checkIpAllowed } from '../auth/steps/check-ip-allowed.js';
import { checkPartnerActive } from '../auth/steps/check-partner-active.js';
import type { LoginDependencies, Session } from './login-partner.js';
import { rotateRefreshToken } from '../auth/tokens/refresh-tokens.js';
import { requireParameters } from '../auth/steps/require-parameters.js';

/**
 * The refresh operation: spends the refresh token for a new access token and a new refresh token in the same
 * family. A partner blocked, deleted or given a new password since the login has a new token generation, and
 * its old family is refused.
 */
export async function refreshSession(input: { refresh_token?: unknown }, clientAddress: string, deps: LoginDependencies): Promise<Session> {
  const { refresh_token: presented } = requireParameters(input, ['refresh_token']);
  const rotated = await rotateRefreshToken(presented, deps.families, deps.refreshTtlSeconds, deps.now());
  const partner = await deps.partners.findById(rotated.partnerId);
  if (!partner || partner.tokenGeneration !== rotated.generation) throw errors.unauthorized('token_revoked');
  checkPartnerActive(partner);
  checkIpAllowed(partner, clientAddress);
  const access = await deps.tokens.issue(partner, rotated.familyId);
  return { ...access, refreshToken: rotated.refreshToken, refreshExpiresIn: rotated.refreshExpiresIn, partnerLogin: partner.login };
}
