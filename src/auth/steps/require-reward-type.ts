import { errors } from '../../errors.js';
import type { Partner } from '../../partners/partner.js';

/** Refuses a partner whose contract does not include `rewardType`. */
export function requireRewardType(partner: Partner, rewardType: string): void {
  if (!partner.rewardTypes.includes(rewardType)) throw errors.rewardTypeUnavailable();
}
