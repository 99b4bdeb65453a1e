/**
 * The bootstrap ADMIN_TOKEN is a credential like any other (issue 33, finding 8): checked after the address's
 * lockout, so that an address guessing it is stopped like one guessing operators' tokens.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { testBackends } from '../support/test-databases.js';
import { startTestGateway, TEST_ADMIN_TOKEN, type TestGateway } from '../support/test-gateway.js';

for (const backend of testBackends()) {
  describe(`the bootstrap ADMIN_TOKEN on ${backend.name}`, () => {
    let t: TestGateway;
    before(async () => {
      t = await startTestGateway(backend, { env: { THROTTLE_MAX_FAILURES: '5' } });
    });
    after(async () => {
      await t?.close();
    });
    const get = (token: string, remoteAddress: string) => t.admin.inject({ method: 'GET', url: '/admin/v1/partners', headers: { authorization: `Bearer ${token}` }, remoteAddress });

    it('when an address has guessed wrong until its lockout, then even the right ADMIN_TOKEN is refused from it with 429, and accepted from another', async () => {
      for (let i = 0; i < 5; i++) assert.equal((await get(`not-the-admin-token-${i}`, '192.0.2.40')).statusCode, 401);
      const locked = await get(TEST_ADMIN_TOKEN, '192.0.2.40');
      assert.equal(locked.statusCode, 429);
      assert.ok(Number(locked.headers['retry-after']) >= 1);
      assert.equal((await get(TEST_ADMIN_TOKEN, '192.0.2.41')).statusCode, 200);
    });

    it('when the right ADMIN_TOKEN is used before any lockout, then it acts as bootstrap', async () => {
      const me = await t.admin.inject({ method: 'GET', url: '/admin/v1/me', headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` }, remoteAddress: '192.0.2.42' });
      assert.equal(me.statusCode, 200);
      assert.equal(me.json().credential, 'bootstrap');
    });
  });
}
