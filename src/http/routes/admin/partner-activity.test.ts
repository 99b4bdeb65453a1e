import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CLIENT_ASSERTION_TYPE, FORM_HEADERS, clientAssertion, form, registerKeys, testKey } from '../../../../test/support/oauth-client.js';
import { testBackends } from '../../../../test/support/test-databases.js';
import { startTestGateway, TEST_ADMIN_TOKEN, type TestGateway } from '../../../../test/support/test-gateway.js';

for (const backend of testBackends()) {
  describe(`GET /admin/v1/partner-activity on ${backend.name}`, () => {
    let t: TestGateway;
    before(async () => {
      t = await startTestGateway(backend, { env: { REWARD_TYPES: 'sbp,cards', PUBLIC_URL: 'http://127.0.0.1:8080' } });
    });
    after(() => t.close());

    const activity = (logins: string, token = TEST_ADMIN_TOKEN) =>
      t.admin.inject({ method: 'GET', url: `/admin/v1/partner-activity?logins=${logins}`, headers: { authorization: `Bearer ${token}` } });
    const lastCall = async (login: string) => (await activity(login)).json().partners[0].lastSuccessfulCall;

    it("gives each partner's last successful partner API call, ignoring failures and admin changes", async () => {
      const active = await t.addPartner();
      const idle = await t.addPartner();
      assert.deepEqual((await activity(`${active.login},${idle.login}`)).json(), {
        partners: [
          { login: active.login, lastSuccessfulCall: null },
          { login: idle.login, lastSuccessfulCall: null },
        ],
      });
      const login = await t.app.inject({ method: 'POST', url: '/api/v1/login/', payload: active });
      assert.equal(login.statusCode, 200);
      assert.equal((await lastCall(active.login)).action, 'login');
      const banks = await t.app.inject({ method: 'POST', url: '/partner/provider/sbp/banks/', headers: { authorization: `Bearer ${login.json().access_token}` } });
      assert.equal(banks.statusCode, 200);
      const afterBanks = await lastCall(active.login);
      assert.equal(afterBanks.action, 'banks');
      assert.ok(Date.now() - Date.parse(afterBanks.at) < 60_000);
      // A failed login and an admin change are newer, and neither counts.
      await t.app.inject({ method: 'POST', url: '/api/v1/login/', payload: { login: active.login, password: 'not the password at all' } });
      await t.admin.inject({ method: 'PATCH', url: `/admin/v1/partners/${active.login}`, headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` }, payload: { rewardTypes: ['sbp', 'cards'] } });
      assert.deepEqual(await lastCall(active.login), afterBanks);
      assert.equal(await lastCall(idle.login), null);
      assert.equal(await lastCall('nobody-at-all'), null);
    });

    it('when a partner only takes client-credentials tokens, then its last call is the token it took', async () => {
      const partner = await t.addPartner();
      const key = await testKey();
      await registerKeys(t.gateway, partner.login, [key]);
      const token = await t.app.inject({
        method: 'POST',
        url: '/api/v1/oauth/token',
        headers: FORM_HEADERS,
        payload: form({ grant_type: 'client_credentials', client_assertion_type: CLIENT_ASSERTION_TYPE, client_assertion: await clientAssertion(key, partner.login, 'http://127.0.0.1:8080') }),
      });
      assert.equal(token.statusCode, 200, token.body);
      assert.equal((await lastCall(partner.login)).action, 'token');
    });

    it('requires the admin token and a valid list of logins', async () => {
      assert.equal((await activity('a', 'wrong')).statusCode, 401);
      assert.equal((await t.admin.inject({ method: 'GET', url: '/admin/v1/partner-activity', headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } })).statusCode, 422);
      assert.equal((await activity('a,,b')).statusCode, 422);
      const tooMany = await activity(Array.from({ length: 101 }, (_, index) => `p${index}`).join(','));
      assert.equal(tooMany.statusCode, 422);
      assert.equal(tooMany.json().errors[0].field, 'logins');
    });
  });
}
