import { errors } from '../../errors.js';
import { isAddressAllowed } from '../../partners/ip-allowlist.js';
import type { Partner } from '../../partners/partner.js';

/** Refuses a partner calling from an address outside its IP allowlist (an empty allowlist allows none). */
export function checkIpAllowed(partner: Partner, clientAddress: string): void {
  if (!isAddressAllowed(clientAddress, partner.ipAllowlist)) throw errors.ipNotAllowed();
}
