import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { texts } from '../../errors.js';
import { partnerFixture as partner } from '../../../test/support/partner-fixture.js';
import { checkPartnerAccess, requireRewardType } from './check-partner-access.js';

describe('checkPartnerAccess', () => {
  it('when an active partner calls from its allowlist, then it is let through', () => assert.doesNotThrow(() => checkPartnerAccess(partner(), '10.2.3.4')));
  it('when the partner is blocked, then it is refused with the blocked text', () => {
    assert.throws(() => checkPartnerAccess(partner({ status: 'blocked' }), '10.2.3.4'), { status: 403, description: texts.blocked });
  });
  it('when it calls from outside its allowlist, then it is refused with the IP text', () => {
    assert.throws(() => checkPartnerAccess(partner(), '192.0.2.1'), { status: 403, description: texts.ipNotAllowed });
  });
  it('when the allowlist is empty, then every address is refused', () => {
    assert.throws(() => checkPartnerAccess(partner({ ipAllowlist: [] }), '10.2.3.4'), { status: 403, description: texts.ipNotAllowed });
  });
  it('when a blocked partner also calls from outside its allowlist, then the block is what it is told (the seed\'s order)', () => {
    assert.throws(() => checkPartnerAccess(partner({ status: 'blocked' }), '192.0.2.1'), { status: 403, description: texts.blocked });
  });
});

describe('requireRewardType', () => {
  it('when the partner has the reward type, then it is let through', () => assert.doesNotThrow(() => requireRewardType(partner(), 'sbp')));
  it('when it lacks it, then it is refused with the reward-type text', () => {
    assert.throws(() => requireRewardType(partner({ rewardTypes: ['cards'] }), 'sbp'), { status: 403, description: texts.rewardTypeUnavailable });
  });
});
