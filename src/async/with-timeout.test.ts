import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { withTimeout } from './with-timeout.js';

describe('withTimeout', () => {
  it('gives the result of work that finishes in time', async () => {
    assert.equal(await withTimeout(Promise.resolve(42), 1_000, () => 'late'), 42);
  });

  it('rejects with the message once the time has passed, without waiting for the work', async () => {
    const pending = new Set(['a', 'b', 'c']);
    const waiting = withTimeout(new Promise(() => {}), 20, () => `not done: ${pending.size} left`);
    pending.delete('a');
    await assert.rejects(waiting, { message: 'not done: 2 left' }, 'the message is made when the time is up');
  });

  it('passes on the work’s own failure', async () => {
    await assert.rejects(withTimeout(Promise.reject(new Error('refused')), 1_000, () => 'late'), /refused/);
  });
});
