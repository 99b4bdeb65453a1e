import type { RefreshRequest } from '@partner-gateway/contract/public-api';
import { dpopChallenge } from '../auth/binding/dpop-challenge.js';
import { readSessionProof, spendSessionProof } from '../auth/binding/read-session-proof.js';
import { listenerUrls } from '../auth/binding/verify-dpop-proof.js';
import { checkPartnerAccess } from '../auth/steps/check-partner-access.js';
import { requireParameters } from '../auth/steps/require-parameters.js';
import { rotateRefreshToken } from '../auth/tokens/refresh-tokens.js';
import { errors } from '../errors.js';
import type { RequestContext } from '../request-context.js';
import type { Session, SessionDependencies } from './login-partner.js';

/**
 * The refresh operation: spends the refresh token for a new access token and a new refresh token in the same
 * family. A partner blocked, deleted or given a new password since the login has a new token generation, and
 * its old family is refused. A DPoP-bound family stays bound: its refresh needs a proof by the same key (the
 * presented refresh token is spent even when that proof is missing: whoever holds the token without the key
 * is a thief, and the partner's next use of it then revokes the family as a reuse). A partner required to use
 * bound tokens cannot refresh without a proof. The context's audit entry learns the partner once the refresh
 * token names it, even if a later check refuses it.
 *
 * @example
 * ```ts
 * const session = await refreshSession({ refresh_token }, context, deps);
 * ```
 */
export async function refreshSession(input: Partial<RefreshRequest>, context: RequestContext, deps: SessionDependencies): Promise<Session> {
  const { refresh_token: presented } = requireParameters(input, ['refresh_token']);
  const proof = await readSessionProof(context.dpop, listenerUrls(context, deps.paths.refresh), deps.dpop);
  const rotated = await rotateRefreshToken(presented, deps.families, deps.refreshTtlSeconds, deps.now());
  const partner = await deps.partners.findById(rotated.partnerId);
  if (!partner || partner.tokenGeneration !== rotated.generation) throw errors.unauthorized('token_revoked');
  context.audit.partner = partner.login;
  checkPartnerAccess(partner, context.clientAddress);
  if (!proof && (rotated.jkt !== null || partner.requireBoundTokens)) throw errors.unauthorized('dpop_required');
  if (proof && rotated.jkt !== null && proof.jkt !== rotated.jkt) {
    throw errors.unauthorized('dpop_key_mismatch', dpopChallenge('invalid_dpop_proof', 'The DPoP proof is signed by another key than the one the session is bound to'));
  }
  if (proof) await spendSessionProof(proof, deps.dpop);
  const access = await deps.tokens.issue(partner, { familyId: rotated.familyId, jkt: proof?.jkt });
  return {
    ...access,
    refreshToken: rotated.refreshToken,
    refreshExpiresIn: rotated.refreshExpiresIn,
    partnerLogin: partner.login,
    tokenType: proof ? 'DPoP' : 'bearer',
  };
}
