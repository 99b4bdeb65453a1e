import type { Logger } from 'pino';
import type { PartnerAdmin } from '../partners/partner-admin.js';

/** Partners named in the start-up line at most; the count says how many there are in all. */
const NAMED_AT_MOST = 100;

/**
 * At start, one warning naming the partners that hold reward types outside REWARD_TYPES (stored before the
 * catalogue left them out, or before there was one) and those types: nobody may give a partner such a type any
 * more, and a typo like `spb` never gave the partner `sbp`. Logins and type names only, nothing secret. Returns
 * how many partners it found.
 *
 * @example
 * ```ts
 * await reportUnknownRewardTypes(gateway.admin.partners, logger);
 * // {"level":40,"reason":"unknown_reward_types","rewardTypes":["sbp"],"count":1,"partners":[{"login":"acme","unknownRewardTypes":["spb"]}],"msg":"1 partner holds reward types not in REWARD_TYPES (sbp): acme (spb); ..."}
 * ```
 */
export async function reportUnknownRewardTypes(partners: Pick<PartnerAdmin, 'rewardTypes' | 'withUnknownRewardTypes'>, logger: Pick<Logger, 'warn'>): Promise<number> {
  const found = await partners.withUnknownRewardTypes();
  if (found.length === 0) return 0;
  const named = found.slice(0, NAMED_AT_MOST);
  const list = named.map((partner) => `${partner.login} (${partner.unknownRewardTypes.join(', ')})`).join(', ');
  const more = found.length > named.length ? ` and ${found.length - named.length} more` : '';
  logger.warn(
    { reason: 'unknown_reward_types', rewardTypes: partners.rewardTypes(), count: found.length, partners: named },
    `${found.length} partner${found.length === 1 ? ' holds' : 's hold'} reward types not in REWARD_TYPES (${partners.rewardTypes().join(', ')}): ${list}${more}; ` +
      'set their reward types again (partner-gateway partner set-rewards, or the console), or add the types to REWARD_TYPES',
  );
  return found.length;
}
