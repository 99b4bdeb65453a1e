import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { holdReason } from './removal-guard.js';

describe('holdReason', () => {
  const limits = { maxRemovals: 10, minBanks: 20 };
  it('when a sync removes at most BANKS_SYNC_MAX_REMOVALS banks and leaves at least BANKS_SYNC_MIN_BANKS, then it may apply', () => {
    assert.equal(holdReason({ removed: 10, banks: 20 }, limits), null);
  });
  it('when it removes one bank more than allowed, then it is held, saying how many and which limit', () => {
    assert.equal(holdReason({ removed: 11, banks: 200 }, limits), 'it would remove 11 banks (more than BANKS_SYNC_MAX_REMOVALS, 10)');
  });
  it('when it leaves fewer banks than the minimum, then it is held; both reasons when both hold', () => {
    assert.equal(holdReason({ removed: 0, banks: 19 }, limits), 'it would leave 19 banks (fewer than BANKS_SYNC_MIN_BANKS, 20)');
    assert.match(holdReason({ removed: 50, banks: 3 }, limits)!, /remove 50 banks .* and it would leave 3 banks/);
  });
});
