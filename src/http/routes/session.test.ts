import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { texts } from '../../errors.js';
import { testBackends } from '../../../test/support/test-databases.js';
import { startTestGateway, type TestGateway } from '../../../test/support/test-gateway.js';

const BANKS = '/partner/provider/sbp/banks/';

for (const backend of testBackends()) {
  describe(`refresh and logout on ${backend.name}`, () => {
    let t: TestGateway;
    let clock = Date.now();
    before(async () => {
      t = await startTestGateway(backend, { now: () => clock, env: { REFRESH_TTL: '3600', REWARD_TYPES: 'sbp,cards' } });
    });
    after(() => t.close());

    const login = async (who: { login: string; password: string }) => {
      const response = await t.app.inject({ method: 'POST', url: '/api/v1/login/', payload: who });
      assert.equal(response.statusCode, 200, response.body);
      return response.json() as { access_token: string; refresh_token: string; refresh_expires_in: number; expires_in: number };
    };
    const refresh = (token: unknown, remoteAddress = '127.0.0.1') =>
      t.app.inject({ method: 'POST', url: '/api/v1/token/refresh/', payload: { refresh_token: token } as object, remoteAddress });
    const banks = (token: string) => t.app.inject({ method: 'POST', url: BANKS, headers: { authorization: `Bearer ${token}` } });
    const logout = (token: string) => t.app.inject({ method: 'POST', url: '/api/v1/logout/', headers: { authorization: `Bearer ${token}` } });

    it('returns an opaque 256-bit refresh token with its lifetime, and stores only its hash', async () => {
      const session = await login(await t.addPartner());
      assert.match(session.refresh_token, /^[A-Za-z0-9_-]{43}$/);
      assert.equal(session.refresh_expires_in, 3600);
      const rows = await sql<{ token_hash: string }>`select token_hash from refresh_tokens`.execute(t.handle.db);
      assert.ok(rows.rows.length > 0);
      assert.ok(rows.rows.every((row) => row.token_hash !== session.refresh_token && /^[0-9a-f]{64}$/.test(row.token_hash)));
    });

    it('refreshes into a new access token and a new refresh token, spending the old one', async () => {
      const first = await login(await t.addPartner());
      const response = await refresh(first.refresh_token);
      assert.equal(response.statusCode, 200);
      assert.equal(response.headers['cache-control'], 'no-store');
      const second = response.json();
      assert.deepEqual(Object.keys(second).sort(), ['access_token', 'expires_in', 'refresh_expires_in', 'refresh_token', 'token_type']);
      assert.notEqual(second.refresh_token, first.refresh_token);
      assert.equal((await banks(second.access_token)).statusCode, 200);
      assert.equal((await refresh(second.refresh_token)).statusCode, 200);
    });

    it('treats a spent refresh token as reuse: 401, and every token of that login is revoked', async () => {
      const first = await login(await t.addPartner());
      const second = (await refresh(first.refresh_token)).json();
      const reuse = await refresh(first.refresh_token);
      assert.equal(reuse.statusCode, 401);
      assert.deepEqual(reuse.json(), { description_status: texts.unauthorized });
      assert.equal((await refresh(second.refresh_token)).statusCode, 401, 'the descendant refresh token is revoked');
      assert.equal((await banks(second.access_token)).statusCode, 401, 'the descendant access token is revoked');
      assert.equal((await banks(first.access_token)).statusCode, 401, 'the original access token is revoked');
    });

    it('lets only one of two concurrent refreshes with the same token through, and revokes the family', async () => {
      const session = await login(await t.addPartner());
      const results = await Promise.all([refresh(session.refresh_token), refresh(session.refresh_token)]);
      assert.deepEqual(results.map((r) => r.statusCode).sort(), [200, 401]);
      const winner = results.find((r) => r.statusCode === 200)!.json();
      assert.equal((await banks(winner.access_token)).statusCode, 401);
    });

    it('refuses a missing, malformed, unknown or expired refresh token', async () => {
      const missing = await refresh(undefined);
      assert.equal(missing.statusCode, 422);
      assert.equal(missing.json().description_status, 'A required parameter refresh_token was omitted; repeat the request with correct data');
      assert.equal((await refresh('short')).statusCode, 401);
      assert.equal((await refresh('A'.repeat(43))).statusCode, 401);
      assert.equal((await refresh(12)).statusCode, 422);
      const session = await login(await t.addPartner());
      clock += 3601_000;
      try {
        assert.equal((await refresh(session.refresh_token)).statusCode, 401);
      } finally {
        clock -= 3601_000;
      }
    });

    it('refuses a refresh from outside the allowlist with 403 IP', async () => {
      const session = await login(await t.addPartner());
      const response = await refresh(session.refresh_token, '192.0.2.9');
      assert.equal(response.statusCode, 403);
      assert.deepEqual(response.json(), { description_status: texts.ipNotAllowed });
    });

    it('logs out: 204, and that access token and its refresh family stop working at once; other logins go on', async () => {
      const partner = await t.addPartner();
      const session = await login(partner);
      const other = await login(partner);
      const response = await logout(session.access_token);
      assert.equal(response.statusCode, 204);
      assert.equal((await banks(session.access_token)).statusCode, 401);
      assert.equal((await refresh(session.refresh_token)).statusCode, 401);
      assert.equal((await logout(session.access_token)).statusCode, 401);
      assert.equal((await banks(other.access_token)).statusCode, 200, 'another login of the same partner is untouched');
      const anonymous = await t.app.inject({ method: 'POST', url: '/api/v1/logout/' });
      assert.equal(anonymous.statusCode, 401);
      assert.equal(anonymous.headers['www-authenticate'], 'Bearer error="invalid_token"');
    });

    it('revokes access and refresh tokens when the partner is blocked, gets a new password, or is deleted', async () => {
      for (const change of ['block', 'password', 'delete'] as const) {
        const partner = await t.addPartner();
        const session = await login(partner);
        if (change === 'block') await t.gateway.admin.partners.update(partner.login, { status: 'blocked' });
        if (change === 'password') await t.gateway.admin.partners.update(partner.login, { password: 'a new password 2' });
        if (change === 'delete') await t.gateway.admin.partners.remove(partner.login);
        assert.equal((await banks(session.access_token)).statusCode, 401, change);
        assert.equal((await refresh(session.refresh_token)).statusCode, 401, change);
      }
    });

    it('keeps tokens working across changes that do not concern credentials', async () => {
      const partner = await t.addPartner();
      const session = await login(partner);
      await t.gateway.admin.partners.update(partner.login, { rewardTypes: ['sbp', 'cards'] });
      assert.equal((await banks(session.access_token)).statusCode, 200);
      assert.equal((await refresh(session.refresh_token)).statusCode, 200);
    });
  });
}
