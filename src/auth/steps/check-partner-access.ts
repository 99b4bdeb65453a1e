import { errors } from '../../errors.js';
import { isAddressAllowed } from '../../partners/ip-allowlist.js';
import type { Partner } from '../../partners/partner.js';

/**
 * What a partner whose credentials are proven may still be refused, in the seed's fixed order: a blocked partner
 * (403), then a call from outside its IP allowlist (403; an empty allowlist allows none). Called only after the
 * credentials are proven, so a guesser never learns the status or the allowlist.
 *
 * @example
 * ```ts
 * const partner = await authenticateWithPassword(login, password, context.clientAddress, deps);
 * checkPartnerAccess(partner, context.clientAddress);
 * ```
 */
export function checkPartnerAccess(partner: Pick<Partner, 'status' | 'ipAllowlist'>, clientAddress: string): void {
  if (partner.status !== 'active') throw errors.blocked();
  if (!isAddressAllowed(clientAddress, partner.ipAllowlist)) throw errors.ipNotAllowed();
}

/** Refuses (403) a partner whose contract does not include `rewardType`: the banks call's last check. */
export function requireRewardType(partner: Pick<Partner, 'rewardTypes'>, rewardType: string): void {
  if (!partner.rewardTypes.includes(rewardType)) throw errors.rewardTypeUnavailable();
}
