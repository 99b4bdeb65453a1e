import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { texts } from '../../errors.js';
import { partnerFixture as partner } from '../../../test/support/partner-fixture.js';
import { requireRewardType } from './require-reward-type.js';

describe('requireRewardType', () => {
  it('lets a partner with the reward type through', () => assert.doesNotThrow(() => requireRewardType(partner(), 'sbp')));
  it('refuses a partner without it', () => {
    assert.throws(() => requireRewardType(partner({ rewardTypes: ['cards'] }), 'sbp'), { status: 403, description: texts.rewardTypeUnavailable });
  });
});
