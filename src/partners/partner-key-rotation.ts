import type { RotateKeyRequest } from '@partner-gateway/contract/self-service';
import { errors } from '../errors.js';
import { overlapEnd, retirementOf } from './overlap-end.js';
import type { Partner } from './partner.js';
import { liveKeys, validatePartnerJwks, type PartnerKey } from './partner-keys.js';
import type { PartnerRepository } from './partner-repository.js';

/** A rotation's outcome: the keys before and after, the key added, and when the older ones stop. */
export interface KeyRotation {
  before: PartnerKey[];
  after: PartnerKey[];
  added: PartnerKey;
  /** When the keys registered before stop being accepted (ISO 8601). */
  retireAt: string;
}

/** Registered keys a partner may hold at once (validatePartnerJwks's bound). */
const MAX_KEYS = 20;

/**
 * A partner rotates its own private_key_jwt key: the new key is accepted at once, the keys it had keep working
 * until the overlap window ends (`expiresAt`; a key that already ends sooner keeps its end), then stop by
 * themselves, with no session ended unless `endSessions` asks (every token issued before stops working). Keys
 * already past their end are dropped. Refused: a partner whose keys are
 * published at a jwksUri (409, it rotates there), a key refused by validatePartnerJwks (422), a key already
 * registered by kid or thumbprint (409), a 21st key (422), and a rotation another change overtook (409: two
 * rotations at once never lose a key, one of them is refused).
 *
 * @example
 * ```ts
 * const { retireAt } = await rotatePartnerKey(partner, { key: newPublicJwk, overlapSeconds: 3600 }, { partners, now });
 * ```
 */
export async function rotatePartnerKey(
  partner: Partner,
  body: RotateKeyRequest,
  deps: { partners: Pick<PartnerRepository, 'update'>; now: () => number },
): Promise<KeyRotation> {
  if (partner.jwksUri !== null) throw errors.keysPublished();
  const [added] = await validatePartnerJwks([body.key]);
  const now = deps.now();
  const before = partner.jwks ?? [];
  const kept = liveKeys(before, now);
  if (kept.some((key) => key.kid === added!.kid || key.thumbprint === added!.thumbprint)) throw errors.keyAlreadyRegistered();
  if (kept.length + 1 > MAX_KEYS) {
    throw errors.validationFailed([{ field: 'key', message: `at most ${MAX_KEYS} keys at once: wait for an overlap window to end, or ask the provider to remove a key` }]);
  }
  const retireAt = retirementOf(now, body.overlapSeconds);
  const retiring = kept.map((key) => ({ ...key, expiresAt: overlapEnd(retireAt, key.expiresAt) }));
  const after = [...retiring, added!];
  const updated = await deps.partners.update(partner.login, { jwks: after, ...(body.endSessions ? { revokeTokens: true } : {}) }, { ifUpdatedAt: partner.updatedAt });
  if (!updated) throw errors.keysChangedMeanwhile();
  return { before, after, added: added!, retireAt: new Date(retireAt).toISOString() };
}
