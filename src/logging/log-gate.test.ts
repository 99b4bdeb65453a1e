import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createLogGate } from './log-gate.js';

describe('log gate', () => {
  it('lets one line per key through per interval', () => {
    let clock = 0;
    const mayLog = createLogGate(10_000, () => clock);
    assert.deepEqual([mayLog('busy'), mayLog('busy'), mayLog('not_ready')], [true, false, true]);
    clock = 9_999;
    assert.equal(mayLog('busy'), false);
    clock = 10_000;
    assert.equal(mayLog('busy'), true);
    assert.equal(mayLog(), true);
    assert.equal(mayLog(), false);
  });
});
