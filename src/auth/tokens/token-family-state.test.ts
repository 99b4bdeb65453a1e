import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { familyAdmits } from './token-family-state.js';

const family = { id: 'f', partnerId: 'p', generation: 0, revokedAt: null, jkt: null };

describe('familyAdmits', () => {
  it("refuses a login's token whose family is not stored (purged, never written or forged)", () => {
    assert.equal(familyAdmits({ accessOnly: false }, undefined, 'p'), false);
  });

  it('admits a client-credentials token with no stored family: its family is written only when revoked', () => {
    assert.equal(familyAdmits({ accessOnly: true }, undefined, 'p'), true);
  });

  it('refuses a revoked family and a family of another partner, whatever the token', () => {
    for (const accessOnly of [true, false]) {
      assert.equal(familyAdmits({ accessOnly }, { ...family, revokedAt: new Date() }, 'p'), false);
      assert.equal(familyAdmits({ accessOnly }, family, 'someone else'), false);
      assert.equal(familyAdmits({ accessOnly }, family, 'p'), true);
    }
  });
});
