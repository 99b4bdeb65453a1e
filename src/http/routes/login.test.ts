import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createLocalJWKSet, decodeProtectedHeader, jwtVerify } from 'jose';
import { texts } from '../../errors.js';
import { testBackends } from '../../../test/support/test-databases.js';
import { startTestGateway, type TestGateway } from '../../../test/support/test-gateway.js';

for (const backend of testBackends()) {
  describe(`login on ${backend.name}`, () => {
    let t: TestGateway;
    let partner: { login: string; password: string; id: string };
    before(async () => {
      t = await startTestGateway(backend, { env: { TOKEN_TTL: '600' } });
      partner = await t.addPartner();
    });
    after(() => t.close());

    const login = (payload: unknown, extra: Record<string, unknown> = {}) =>
      t.app.inject({ method: 'POST', url: '/api/v1/login/', payload: payload as object, ...extra });

    it('issues a bearer access token with the seed fields and Cache-Control: no-store', async () => {
      const response = await login({ login: partner.login, password: partner.password });
      assert.equal(response.statusCode, 200);
      const body = response.json();
      assert.deepEqual(Object.keys(body).sort(), ['access_token', 'expires_in', 'refresh_expires_in', 'refresh_token', 'token_type']);
      assert.equal(body.token_type, 'bearer');
      assert.equal(body.expires_in, 600);
      assert.equal(response.headers['cache-control'], 'no-store');
    });

    it('signs an RFC 9068 token that verifies against the published JWKS, and only with our issuer and audience', async () => {
      const { access_token: token, expires_in: expiresIn } = (await login({ login: partner.login, password: partner.password })).json();
      const header = decodeProtectedHeader(token);
      assert.equal(header.typ, 'at+jwt');
      assert.equal(header.alg, 'ES256');
      const jwks = (await t.app.inject({ method: 'GET', url: '/.well-known/jwks.json' })).json();
      assert.ok(jwks.keys.some((key: { kid: string; use: string }) => key.kid === header.kid && key.use === 'sig'));
      const { payload } = await jwtVerify(token, createLocalJWKSet(jwks), {
        issuer: 'http://127.0.0.1:8080',
        audience: 'partner-api',
        typ: 'at+jwt',
        algorithms: ['ES256'],
      });
      assert.equal(payload.sub, partner.id);
      assert.equal(payload.client_id, partner.login);
      assert.equal(typeof payload.jti, 'string');
      assert.equal(payload.exp! - payload.iat!, expiresIn);
      await assert.rejects(jwtVerify(token, createLocalJWKSet(jwks), { audience: 'someone-else' }));
    });

    it('gives the same 401 for an unknown login and for a wrong password', async () => {
      for (const payload of [
        { login: 'no-such-partner', password: 'whatever-password' },
        { login: partner.login, password: 'wrong-password-123' },
        { login: `${partner.login}\0`, password: partner.password },
      ]) {
        const response = await login(payload);
        assert.equal(response.statusCode, 401);
        assert.deepEqual(response.json(), { description_status: texts.unauthorized });
      }
    });

    it('tells a blocked partner it is blocked only once its password is right', async () => {
      const blocked = await t.addPartner({ status: 'blocked' });
      const wrong = await login({ login: blocked.login, password: 'not-the-password' });
      assert.equal(wrong.statusCode, 401);
      const right = await login({ login: blocked.login, password: blocked.password });
      assert.equal(right.statusCode, 403);
      assert.deepEqual(right.json(), { description_status: texts.blocked });
    });

    it('refuses a partner calling from outside its allowlist, after checking its password', async () => {
      const remote = await t.addPartner({ ipAllowlist: ['10.1.0.0/16'] });
      const outside = await login({ login: remote.login, password: remote.password });
      assert.equal(outside.statusCode, 403);
      assert.deepEqual(outside.json(), { description_status: texts.ipNotAllowed });
      const wrongPassword = await login({ login: remote.login, password: 'nope-nope-nope' });
      assert.equal(wrongPassword.statusCode, 401);
      const inside = await login({ login: remote.login, password: remote.password }, { remoteAddress: '10.1.2.3' });
      assert.equal(inside.statusCode, 200);
    });

    it('matches an IPv4-mapped IPv6 client address against IPv4 rules', async () => {
      const response = await login({ login: partner.login, password: partner.password }, { remoteAddress: '::ffff:127.0.0.1' });
      assert.equal(response.statusCode, 200);
    });

    it('reports a missing login before a missing password, an empty value counting as omitted', async () => {
      const cases: Array<[unknown, string]> = [
        [{}, 'login'],
        [{ password: 'x' }, 'login'],
        [{ login: '', password: '' }, 'login'],
        [{ login: partner.login }, 'password'],
        [{ login: partner.login, password: '' }, 'password'],
      ];
      for (const [payload, name] of cases) {
        const response = await login(payload);
        assert.equal(response.statusCode, 422, JSON.stringify(payload));
        assert.deepEqual(response.json(), {
          description_status: `A required parameter ${name} was omitted; repeat the request with correct data`,
        });
      }
    });

    it('answers a non-string login with a 422 naming the parameter', async () => {
      const response = await login({ login: 42, password: 'x' });
      assert.equal(response.statusCode, 422);
      assert.equal(response.json().description_status, 'Parameter login has an invalid value; repeat the request with correct data');
    });

    it('answers malformed JSON with 400, a non-JSON content type with 415 and a body over 64 KiB with 413', async () => {
      const malformed = await login('{"login": "a", ', { headers: { 'content-type': 'application/json' } });
      assert.equal(malformed.statusCode, 400);
      assert.match(malformed.json().description_status, /not valid JSON/);
      const form = await login('login=a&password=b', { headers: { 'content-type': 'application/x-www-form-urlencoded' } });
      assert.equal(form.statusCode, 415);
      assert.match(form.json().description_status, /application\/json/);
      const text = await login('login', { headers: { 'content-type': 'text/plain' } });
      assert.equal(text.statusCode, 415);
      const big = await login({ login: partner.login, password: 'x'.repeat(70 * 1024) });
      assert.equal(big.statusCode, 413);
      assert.match(big.json().description_status, /too large/);
    });

    it('refuses a __proto__ key as malformed JSON', async () => {
      const response = await login('{"login":"a","password":"b","__proto__":{"x":1}}', { headers: { 'content-type': 'application/json' } });
      assert.equal(response.statusCode, 400);
      assert.ok(response.json().description_status);
    });

    it('answers other methods with 405 and Allow: POST, and accepts the path without its trailing slash', async () => {
      const get = await t.app.inject({ method: 'GET', url: '/api/v1/login/' });
      assert.equal(get.statusCode, 405);
      assert.equal(get.headers.allow, 'POST');
      const noSlash = await t.app.inject({ method: 'POST', url: '/api/v1/login', payload: { login: partner.login, password: partner.password } });
      assert.equal(noSlash.statusCode, 200);
    });

    it('never writes the password or the issued token to the log', async () => {
      const response = await login({ login: partner.login, password: partner.password });
      await login({ login: partner.login, password: 'a-wrong-secret-password' });
      const logged = t.logs.join('\n');
      assert.ok(logged.includes('/api/v1/login/'), 'requests are logged');
      assert.ok(!logged.includes(partner.password));
      assert.ok(!logged.includes('a-wrong-secret-password'));
      assert.ok(!logged.includes(response.json().access_token));
    });
  });
}
