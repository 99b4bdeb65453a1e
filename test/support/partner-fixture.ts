import type { Partner } from '../../src/partners/partner.js';

/** An active partner allowed from 10.0.0.0/8 with reward type sbp, with any field overridden. */
export function partnerFixture(changes: Partial<Partner> = {}): Partner {
  return {
    id: 'id',
    login: 'acme',
    passwordHash: 'hash',
    status: 'active',
    ipAllowlist: ['10.0.0.0/8'],
    rewardTypes: ['sbp'],
    tokenGeneration: 0,
    authMethods: ['password'],
    requireBoundTokens: false,
    jwks: null,
    jwksUri: null,
    jwksFetchedAt: null,
    certificates: null,
    subjectDn: null,
    createdAt: new Date(),
    updatedAt: new Date(),
    ...changes,
  };
}
