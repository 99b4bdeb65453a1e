import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { texts } from '../../../errors.js';
import { testBackends } from '../../../../test/support/test-databases.js';
import { startTestGateway, TEST_ADMIN_TOKEN, type TestGateway } from '../../../../test/support/test-gateway.js';

for (const backend of testBackends()) {
  describe(`admin partners on ${backend.name}`, () => {
    let t: TestGateway;
    before(async () => {
      t = await startTestGateway(backend);
    });
    after(() => t.close());

    const admin = (method: string, url: string, payload?: unknown, token = TEST_ADMIN_TOKEN) =>
      t.admin.inject({ method: method as 'GET', url, headers: { authorization: `Bearer ${token}` }, ...(payload === undefined ? {} : { payload: payload as object }) });
    const login = (body: object, remoteAddress = '127.0.0.1') => t.app.inject({ method: 'POST', url: '/api/v1/login/', payload: body, remoteAddress });

    it('refuses a request without the admin token, or with a wrong one, on every route', async () => {
      for (const headers of [{}, { authorization: 'Bearer wrong-token' }, { authorization: `Basic ${TEST_ADMIN_TOKEN}` }]) {
        const response = await t.admin.inject({ method: 'GET', url: '/admin/v1/partners', headers });
        assert.equal(response.statusCode, 401);
        assert.deepEqual(response.json(), { description_status: texts.unauthorized });
      }
      assert.equal((await t.admin.inject({ method: 'GET', url: '/admin/v1/nothing' })).statusCode, 401);
    });

    it('creates a partner who can then log in, and never shows its password or hash', async () => {
      const created = await admin('POST', '/admin/v1/partners', {
        login: 'shop-one',
        password: 'a long enough password',
        ipAllowlist: ['127.0.0.1', '10.0.0.0/8', '2001:db8::/32'],
        rewardTypes: ['sbp'],
      });
      assert.equal(created.statusCode, 201);
      const view = created.json();
      assert.deepEqual(view.ipAllowlist, ['127.0.0.1/32', '10.0.0.0/8', '2001:db8::/32']);
      assert.equal(view.status, 'active');
      assert.ok(!JSON.stringify(view).includes('argon2'));
      assert.ok(!('passwordHash' in view) && !('password' in view));
      assert.equal((await login({ login: 'shop-one', password: 'a long enough password' })).statusCode, 200);

      const shown = await admin('GET', '/admin/v1/partners/shop-one');
      assert.equal(shown.statusCode, 200);
      assert.equal(shown.json().login, 'shop-one');
      const listed = await admin('GET', '/admin/v1/partners');
      assert.ok(listed.json().partners.some((partner: { login: string }) => partner.login === 'shop-one'));
      assert.ok(!listed.body.includes('argon2'));
    });

    it('answers 409 for a login that exists', async () => {
      const body = { login: 'dup-login', password: 'a long enough password', ipAllowlist: [], rewardTypes: [] };
      assert.equal((await admin('POST', '/admin/v1/partners', body)).statusCode, 201);
      const again = await admin('POST', '/admin/v1/partners', body);
      assert.equal(again.statusCode, 409);
      assert.equal(again.json().description_status, 'A partner with login dup-login already exists');
    });

    it('names every bad field: a bad CIDR, a short password, an unknown field, a missing one', async () => {
      const response = await admin('POST', '/admin/v1/partners', {
        login: 'bad-input',
        password: 'long enough password',
        ipAllowlist: ['10.0.0.5/24', 'not-an-ip'],
        rewardTypes: ['sbp'],
      });
      assert.equal(response.statusCode, 422);
      const fields = response.json().errors.map((error: { field: string }) => error.field);
      assert.deepEqual(fields.sort(), ['ipAllowlist[0]', 'ipAllowlist[1]']);
      // The 12-character minimum is the documented schema's (minLength), refused before the allowlist is read.
      const short = await admin('POST', '/admin/v1/partners', { login: 'bad-input', password: 'short', ipAllowlist: [], rewardTypes: ['sbp'] });
      assert.deepEqual(short.json().errors.map((error: { field: string }) => error.field), ['password']);
      assert.match(response.json().errors.find((e: { field: string }) => e.field === 'ipAllowlist[0]').message, /did you mean 10\.0\.0\.0\/24/);

      const shape = await admin('POST', '/admin/v1/partners', { login: 'x y', ip_allowlist: [], rewardTypes: 'sbp' });
      assert.equal(shape.statusCode, 422);
      const shapeFields = shape.json().errors.map((error: { field: string }) => error.field);
      for (const field of ['login', 'password', 'ipAllowlist', 'ip_allowlist', 'rewardTypes']) assert.ok(shapeFields.includes(field), field);
    });

    it('applies a block, a new password and a new allowlist on the very next request', async () => {
      const partner = await t.addPartner();
      const changed = (await admin('PATCH', `/admin/v1/partners/${partner.login}`, { status: 'blocked' })).json();
      assert.equal(changed.status, 'blocked');
      assert.equal((await login(partner)).statusCode, 403);
      await admin('PATCH', `/admin/v1/partners/${partner.login}`, { status: 'active', password: 'a brand new password' });
      assert.equal((await login(partner)).statusCode, 401);
      assert.equal((await login({ login: partner.login, password: 'a brand new password' })).statusCode, 200);
      await admin('PATCH', `/admin/v1/partners/${partner.login}`, { ipAllowlist: ['192.0.2.0/24'] });
      assert.equal((await login({ login: partner.login, password: 'a brand new password' })).statusCode, 403);
      assert.equal((await login({ login: partner.login, password: 'a brand new password' }, '192.0.2.7')).statusCode, 200);
    });

    it('refuses an empty or unknown change, and 404s an unknown partner', async () => {
      const partner = await t.addPartner();
      assert.equal((await admin('PATCH', `/admin/v1/partners/${partner.login}`, {})).statusCode, 422);
      assert.equal((await admin('PATCH', `/admin/v1/partners/${partner.login}`, { colour: 'red' })).statusCode, 422);
      const missing = await admin('PATCH', '/admin/v1/partners/nobody-at-all', { status: 'blocked' });
      assert.equal(missing.statusCode, 404);
      assert.equal(missing.json().description_status, 'Partner nobody-at-all does not exist');
      assert.equal((await admin('GET', '/admin/v1/partners/nobody-at-all')).statusCode, 404);
    });

    it('deletes a partner, whose credentials then fail', async () => {
      const partner = await t.addPartner();
      assert.equal((await admin('DELETE', `/admin/v1/partners/${partner.login}`)).statusCode, 204);
      assert.equal((await admin('DELETE', `/admin/v1/partners/${partner.login}`)).statusCode, 404);
      assert.equal((await login(partner)).statusCode, 401);
    });

    it('refuses an empty, unknown or repeated auth method, naming the field', async () => {
      const partner = await t.addPartner();
      for (const authMethods of [[], ['sms'], ['password', 'password'], 'password', ['password', 'private_key_jwt', 'client_secret_jwt']]) {
        const response = await admin('PATCH', `/admin/v1/partners/${partner.login}`, { authMethods });
        assert.equal(response.statusCode, 422, JSON.stringify(authMethods));
        assert.ok(response.json().errors.some((error: { field: string }) => error.field.startsWith('authMethods')), JSON.stringify(response.json()));
      }
      assert.equal((await admin('PATCH', `/admin/v1/partners/${partner.login}`, { requireSenderConstrainedTokens: 'yes' })).statusCode, 422);
      const unchanged = (await admin('GET', `/admin/v1/partners/${partner.login}`)).json();
      assert.deepEqual([unchanged.authMethods, unchanged.requireSenderConstrainedTokens], [['password'], false], 'the defaults: nothing changes for existing partners');
    });

    it('taking the password away ends the sessions it opened, and the audit entry shows the change', async () => {
      const partner = await t.addPartner();
      const token = (await login(partner)).json().access_token as string;
      const banks = () => t.app.inject({ method: 'POST', url: '/partner/provider/sbp/banks/', headers: { authorization: `Bearer ${token}` }, remoteAddress: '127.0.0.1' });
      assert.equal((await banks()).statusCode, 200);
      const widened = await admin('PATCH', `/admin/v1/partners/${partner.login}`, { authMethods: ['password', 'private_key_jwt'] });
      assert.deepEqual(widened.json().authMethods, ['password', 'private_key_jwt']);
      assert.equal((await banks()).statusCode, 200, 'adding a method is not stricter: sessions go on');

      const changed = await admin('PATCH', `/admin/v1/partners/${partner.login}`, { authMethods: ['private_key_jwt'] });
      assert.equal(changed.statusCode, 200);
      assert.deepEqual(changed.json().authMethods, ['private_key_jwt']);
      assert.equal((await banks()).statusCode, 401);
      const entry = (await admin('GET', `/admin/v1/audit?action=partner.update&partner=${partner.login}&limit=1`)).json().entries[0];
      assert.deepEqual([entry.details.before.authMethods, entry.details.after.authMethods], [['password', 'private_key_jwt'], ['private_key_jwt']]);
      assert.equal(entry.details.after.requireSenderConstrainedTokens, false);
    });

    it('requiring bound tokens ends the bearer sessions, and the audit entry shows it', async () => {
      const partner = await t.addPartner();
      const token = (await login(partner)).json().access_token as string;
      const banks = () => t.app.inject({ method: 'POST', url: '/partner/provider/sbp/banks/', headers: { authorization: `Bearer ${token}` }, remoteAddress: '127.0.0.1' });
      assert.equal((await banks()).statusCode, 200);
      const changed = await admin('PATCH', `/admin/v1/partners/${partner.login}`, { requireSenderConstrainedTokens: true });
      assert.equal(changed.json().requireSenderConstrainedTokens, true);
      assert.equal((await banks()).statusCode, 401);
      const entry = (await admin('GET', `/admin/v1/audit?action=partner.update&partner=${partner.login}&limit=1`)).json().entries[0];
      assert.deepEqual([entry.details.before.requireSenderConstrainedTokens, entry.details.after.requireSenderConstrainedTokens], [false, true]);
    });

    it('never logs a password sent to the admin API', async () => {
      await admin('POST', '/admin/v1/partners', { login: 'logged-one', password: 'do-not-log-this-secret', ipAllowlist: [], rewardTypes: [] });
      await admin('PATCH', '/admin/v1/partners/logged-one', { password: 'nor-this-other-secret' });
      const logged = t.logs.join('\n');
      assert.ok(logged.includes('/admin/v1/partners'));
      assert.ok(!logged.includes('do-not-log-this-secret') && !logged.includes('nor-this-other-secret'));
      assert.ok(!logged.includes(TEST_ADMIN_TOKEN));
    });
  });
}
