import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CHECK_TIMEOUT_MS, checkDependencies, readinessOf } from './dependency-health.js';

describe('dependency health', () => {
  it('when a dependency never answers, then it is down once the check timeout has passed, and the others are still told apart', async () => {
    const started = Date.now();
    const states = await checkDependencies({ database: async () => {}, redis: () => new Promise(() => {}) });
    assert.deepEqual(states, { database: 'up', redis: 'down' });
    assert.ok(Date.now() - started >= CHECK_TIMEOUT_MS - 50 && Date.now() - started < CHECK_TIMEOUT_MS * 3);
  });

  it('when a check throws before returning a promise, then that dependency is down, not the probe failing', async () => {
    const states = await checkDependencies({
      database: () => {
        throw new Error('closed');
      },
    });
    assert.deepEqual(states, { database: 'down' });
  });

  it('when the database is down, then not_ready whatever Redis says; when only Redis is down, then degraded; without Redis, no redis entry', () => {
    assert.equal(readinessOf({ database: 'down', redis: 'up' }).status, 'not_ready');
    assert.deepEqual(readinessOf({ database: 'up', redis: 'down' }), { status: 'degraded', dependencies: { database: { state: 'up' }, redis: { state: 'down' } } });
    assert.deepEqual(readinessOf({ database: 'up' }), { status: 'ready', dependencies: { database: { state: 'up' } } });
  });
});
