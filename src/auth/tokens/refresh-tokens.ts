import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { errors } from '../../errors.js';
import type { Partner } from '../../partners/partner.js';
import type { TokenFamilyRepository } from './token-family-repository.js';

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
