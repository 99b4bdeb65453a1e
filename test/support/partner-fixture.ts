import { defaultsOf } from '../../src/db/field-map.js';
import type { Partner } from '../../src/partners/partner.js';
import { partnerFields } from '../../src/partners/partner-repository.js';

/**
 * An active partner allowed from 10.0.0.0/8 with reward type sbp, with any field overridden; every other field as
 * the database would default it (the partner field map's defaults), so that a new stored field needs nothing here.
 */
export function partnerFixture(changes: Partial<Partner> = {}): Partner {
  return {
    ...(defaultsOf(partnerFields) as Partner),
    id: 'id',
    login: 'acme',
    passwordHash: 'hash',
    status: 'active',
    ipAllowlist: ['10.0.0.0/8'],
    rewardTypes: ['sbp'],
    ...changes,
  };
}
