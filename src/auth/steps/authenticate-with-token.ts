import { errors } from '../../errors.js';
import type { Partner } from '../../partners/partner.js';
import { invalidTokenHeader } from '../tokens/access-tokens.js';
import type { AuthenticationDependencies } from './authenticate-partner.js';

/**
 * A bearer token: a valid signature is not enough. The partner must still exist with the token generation
 * the token was issued under (blocking, deleting and a new password move it on), and the token's family
 * must not be revoked (logout, refresh-token reuse).
 */
export async function authenticateWithToken(
  token: string,
  partnerName: string | undefined,
  deps: Pick<AuthenticationDependencies, 'tokens' | 'partners' | 'families'>,
): Promise<Partner & { familyId: string }> {
  const claims = await deps.tokens.verify(token);
  const [partner, family] = await Promise.all([deps.partners.findById(claims.partnerId), deps.families.find(claims.familyId)]);
  if (!partner) throw errors.unauthorized('unknown_partner', invalidTokenHeader);
  if (partner.tokenGeneration !== claims.generation || !family || family.revokedAt !== null || family.partnerId !== partner.id) {
    throw errors.unauthorized('token_revoked', invalidTokenHeader);
  }
  if (partnerName !== undefined && partnerName !== partner.login) {
    throw errors.unauthorized('partner_mismatch', invalidTokenHeader);
  }
  return { ...partner, familyId: family.id };
}
