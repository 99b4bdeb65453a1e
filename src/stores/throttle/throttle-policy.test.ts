import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { nextThrottleState, remainingLock, type ThrottlePolicy, type ThrottleState } from './throttle-policy.js';

const policy: ThrottlePolicy = { maxFailures: 3, windowMs: 60_000, lockoutMs: 10_000, lockoutMaxMs: 35_000, memoryMs: 3_600_000 };

function failTimes(count: number, start: ThrottleState | undefined, at: number): ThrottleState {
  let state = start;
  for (let i = 0; i < count; i++) state = nextThrottleState(state, at, policy);
  return state!;
}

describe('throttle policy', () => {
  it('locks a key once it reaches the threshold within the window', () => {
    const two = failTimes(2, undefined, 1000);
    assert.equal(remainingLock(two, 1000), 0);
    const three = nextThrottleState(two, 1000, policy);
    assert.equal(remainingLock(three, 1000), 10_000);
  });

  it('starts a new count when the window has passed', () => {
    const two = failTimes(2, undefined, 0);
    const later = nextThrottleState(two, 61_000, policy);
    assert.equal(later.failures, 1);
    assert.equal(remainingLock(later, 61_000), 0);
  });

  it('doubles each further lockout up to the maximum', () => {
    let state = failTimes(3, undefined, 0);
    assert.equal(remainingLock(state, 0), 10_000);
    state = failTimes(3, state, 20_000);
    assert.equal(remainingLock(state, 20_000), 20_000);
    state = failTimes(3, state, 50_000);
    assert.equal(remainingLock(state, 50_000), 35_000, 'capped: 40 s would exceed the 35 s maximum');
  });

  it('forgets the lockout history after a quiet period', () => {
    const locked = failTimes(3, failTimes(3, undefined, 0), 20_000);
    assert.equal(locked.lockouts, 2);
    const again = failTimes(3, locked, 20_000 + 3_600_001);
    assert.equal(remainingLock(again, 20_000 + 3_600_001), 10_000);
  });
});
