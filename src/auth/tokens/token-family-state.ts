import type { AccessTokenClaims } from './access-tokens.js';
import type { TokenFamily, TokenFamilyRepository } from './token-family-repository.js';

/** How long a revoked access-only family outlives its token: the purge must not forget it while the token still verifies. */
const KEPT_BEYOND_EXPIRY_SECONDS = 60;

/**
 * Whether the family a token names lets it through: a stored family, not revoked, of the token's partner; or,
 * for a client-credentials token, no stored family at all.
 *
 * A client-credentials token's family (access-only: one token, no refresh tokens) is written only when it is
 * revoked. Writing one row per token would cost every grant a database write and grow the table with the grant
 * rate (3.6 million rows an hour at 1 000 grants a second) for the few tokens ever revoked. The token says which
 * kind it is in its signed `gty` claim, so an absent family is trusted only where it can mean "never revoked";
 * a login's token whose family is absent stays refused.
 */
export function familyAdmits(claims: Pick<AccessTokenClaims, 'accessOnly'>, family: TokenFamily | undefined, partnerId: string): boolean {
  if (!family) return claims.accessOnly;
  return family.revokedAt === null && family.partnerId === partnerId;
}

/**
 * Revokes the family of a token (logout, RFC 7009 revocation): a login's in place, a client-credentials token's
 * by writing it revoked, kept until a minute past the token's expiry.
 *
 * @example
 * ```ts
 * const claims = await tokens.verify(token);
 * await revokeFamilyOf(claims, families, 'revocation');
 * ```
 */
export function revokeFamilyOf(claims: AccessTokenClaims, families: TokenFamilyRepository, reason: string): Promise<void> {
  if (!claims.accessOnly) return families.revoke(claims.familyId, reason);
  return families.revoke(claims.familyId, reason, {
    partnerId: claims.partnerId,
    generation: claims.generation,
    jkt: claims.jkt ?? null,
    expiresAt: new Date((claims.expiresAt + KEPT_BEYOND_EXPIRY_SECONDS) * 1000),
  });
}
