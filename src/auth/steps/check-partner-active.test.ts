import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { texts } from '../../errors.js';
import { partnerFixture as partner } from '../../../test/support/partner-fixture.js';
import { checkPartnerActive } from './check-partner-active.js';

describe('checkPartnerActive', () => {
  it('lets an active partner through', () => assert.doesNotThrow(() => checkPartnerActive(partner())));
  it('refuses a blocked partner with the blocked text', () => {
    assert.throws(() => checkPartnerActive(partner({ status: 'blocked' })), { status: 403, description: texts.blocked });
  });
});
