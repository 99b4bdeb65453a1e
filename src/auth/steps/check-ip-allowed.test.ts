import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { texts } from '../../errors.js';
import { partnerFixture as partner } from '../../../test/support/partner-fixture.js';
import { checkIpAllowed } from './check-ip-allowed.js';

describe('checkIpAllowed', () => {
  it('lets a partner call from its allowlist', () => assert.doesNotThrow(() => checkIpAllowed(partner(), '10.2.3.4')));
  it('refuses a partner calling from outside its allowlist', () => {
    assert.throws(() => checkIpAllowed(partner(), '192.0.2.1'), { status: 403, description: texts.ipNotAllowed });
  });
  it('refuses every address when the allowlist is empty', () => {
    assert.throws(() => checkIpAllowed(partner({ ipAllowlist: [] }), '10.2.3.4'), { status: 403 });
  });
});
