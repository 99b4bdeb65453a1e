import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { errors } from '../../errors.js';
import type { Partner } from '../../partners/partner.js';
import type { TokenFamily, TokenFamilyRepository } from './token-family-repository.js';

/** 256 random bits, base64url: 43 characters. */
const REFRESH_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export interface NewRefreshToken {
  familyId: string;
  refreshToken: string;
  refreshExpiresIn: number;
}

/** Refresh tokens are opaque random strings; the database only ever sees their SHA-256. */
export function hashRefreshToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** Whether `token` has a refresh token's shape: an access token (a JWT, with its dots) never has. */
export function isRefreshTokenShaped(token: string): boolean {
  return REFRESH_TOKEN_PATTERN.test(token);
}

function newRefreshToken(): string {
  return randomBytes(32).toString('base64url');
}

/** Starts a token family for a fresh login and returns its first refresh token; `jkt` binds it to a DPoP key. */
export async function startTokenFamily(
  partner: Pick<Partner, 'id' | 'tokenGeneration'>,
  families: TokenFamilyRepository,
  ttlSeconds: number,
  now: number,
  jkt?: string,
): Promise<NewRefreshToken> {
  const familyId = randomUUID();
  const refreshToken = newRefreshToken();
  await families.start(
    { id: familyId, partnerId: partner.id, generation: partner.tokenGeneration, jkt: jkt ?? null },
    { hash: hashRefreshToken(refreshToken), expiresAt: new Date(now + ttlSeconds * 1000) },
  );
  return { familyId, refreshToken, refreshExpiresIn: ttlSeconds };
}

/**
 * Spends a refresh token and returns its successor in the same family. Unknown, expired, revoked and spent
 * tokens are all the same 401; a spent one also revokes the whole family, since either the partner or a
 * thief is replaying it and we cannot tell which.
 */
export async function rotateRefreshToken(
  presented: string,
  families: TokenFamilyRepository,
  ttlSeconds: number,
  now: number,
): Promise<NewRefreshToken & { partnerId: string; generation: number; jkt: string | null }> {
  if (!REFRESH_TOKEN_PATTERN.test(presented)) throw errors.unauthorized('invalid_refresh_token');
  const next = newRefreshToken();
  const result = await families.spend(hashRefreshToken(presented), { hash: hashRefreshToken(next), expiresAt: new Date(now + ttlSeconds * 1000) }, new Date(now));
  switch (result.outcome) {
    case 'rotated':
      return { familyId: result.family.id, refreshToken: next, refreshExpiresIn: ttlSeconds, partnerId: result.family.partnerId, generation: result.family.generation, jkt: result.family.jkt };
    case 'reused':
      throw errors.unauthorized('refresh_token_reused');
    default:
      throw errors.unauthorized('invalid_refresh_token');
  }
}

/**
 * The family of `presented` when it is a refresh token of `partner`'s that still lives: issued to this partner
 * under its current token generation, not expired, its family not revoked. A spent one counts too: RFC 7009
 * section 2.1 ends the whole grant when one of its refresh tokens is revoked, and the refresh endpoint would
 * revoke the family for that same token as a reuse. Anything else is undefined: another partner's token is not
 * to be told apart from an unknown one.
 *
 * @example
 * ```ts
 * const family = await ownRefreshTokenFamily(form.token, partner, families, Date.now());
 * if (family) await families.revoke(family.id, 'revocation');
 * ```
 */
export async function ownRefreshTokenFamily(
  presented: string,
  partner: Pick<Partner, 'id' | 'tokenGeneration'>,
  families: Pick<TokenFamilyRepository, 'findRefreshToken'>,
  now: number,
): Promise<TokenFamily | undefined> {
  if (!isRefreshTokenShaped(presented)) return undefined;
  const stored = await families.findRefreshToken(hashRefreshToken(presented));
  if (!stored || stored.expiresAt.getTime() <= now) return undefined;
  const { family } = stored;
  if (family.partnerId !== partner.id || family.generation !== partner.tokenGeneration || family.revokedAt !== null) return undefined;
  return family;
}
