import { randomBytes } from 'node:crypto';
import { SELF_PASSWORD_PATH } from '@partner-gateway/contract/paths';
import type { RotatePasswordRequest, RotatePasswordResponse } from '@partner-gateway/contract/self-service';
import { authenticateSelf } from '../auth/steps/authenticate-self.js';
import { errors } from '../errors.js';
import { retirementOf } from '../partners/overlap-end.js';
import { hashPassword } from '../partners/password-hasher.js';
import type { RequestContext } from '../request-context.js';
import type { SelfSettingsDependencies } from './self-service-settings.js';

/** The new password's entropy: 32 random bytes, written as 43 base64url characters after a recognisable prefix. */
const PASSWORD_BYTES = 32;

/**
 * POST /api/v1/self/password: the gateway makes the partner a new API password (never one the partner chose: no
 * weak or reused password) and answers it once; the current one keeps working for the overlap (default 24 hours),
 * then stops by itself (the password check skips it after `previousPasswordUntil`). Only the password just
 * replaced overlaps: a second rotation ends the first one's. No token or session ends unless `endSessions` asks; a compare-and-set on the
 * partner (409 `settings_changed_meanwhile`). The audit entry keeps the end, never a password or hash.
 *
 * @example
 * ```ts
 * const { password, previousPasswordUntil } = await rotateOwnPassword({ overlapSeconds: 3600 }, context, deps);
 * ```
 */
export async function rotateOwnPassword(body: RotatePasswordRequest, context: RequestContext, deps: SelfSettingsDependencies & { now: () => number }): Promise<RotatePasswordResponse> {
  const partner = await authenticateSelf(context, 'POST', SELF_PASSWORD_PATH, deps, { changes: true });
  const password = `pgw_${randomBytes(PASSWORD_BYTES).toString('base64url')}`;
  const now = deps.now();
  const retireAt = retirementOf(now, body.overlapSeconds);
  const previousPasswordUntil = retireAt > now ? new Date(retireAt) : null;
  const updated = await deps.partners.update(
    partner.login,
    { passwordHash: await hashPassword(password), previousPasswordHash: previousPasswordUntil ? partner.passwordHash : null, previousPasswordUntil, ...(body.endSessions ? { revokeTokens: true } : {}) },
    { ifUpdatedAt: partner.updatedAt },
  );
  if (!updated) throw errors.settingsChangedMeanwhile();
  context.audit.details = { previousPasswordUntil: previousPasswordUntil?.toISOString() ?? null, sessionsEnded: body.endSessions === true };
  return { password, previousPasswordUntil: previousPasswordUntil?.toISOString() ?? null };
}
