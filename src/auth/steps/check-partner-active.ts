import { errors } from '../../errors.js';
import type { Partner } from '../../partners/partner.js';

/** Refuses a blocked partner. Called only after its credentials are proven, so a guesser never learns the status. */
export function checkPartnerActive(partner: Partner): void {
  if (partner.status !== 'active') throw errors.blocked();
}
