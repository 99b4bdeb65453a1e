import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createLocalJWKSet, jwtVerify, calculateJwkThumbprint } from 'jose';
import { testBackends } from '../../../test/support/test-databases.js';
import { startTestGateway, type TestGateway } from '../../../test/support/test-gateway.js';
import { CLIENT_ASSERTION_TYPE, FORM_HEADERS, clientAssertion, dpopProof, form, registerKeys, testKey, type TestKey } from '../../../test/support/oauth-client.js';
import { texts } from '../../errors.js';

const BASE = 'http://127.0.0.1:8080';
const TOKEN_URL = `${BASE}/api/v1/oauth/token`;

for (const backend of testBackends()) {
  describe(`OAuth endpoints on ${backend.name}`, () => {
    let t: TestGateway;
    let partner: { login: string; password: string; id: string };
    let key: TestKey;
    before(async () => {
      t = await startTestGateway(backend, { env: { TOKEN_TTL: '600' } });
      partner = await t.addPartner();
      key = await testKey();
      await registerKeys(t.gateway, partner.login, [key]);
    });
    after(() => t.close());

    const post = (url: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
      t.app.inject({ method: 'POST', url, headers: { ...FORM_HEADERS, ...headers }, payload: form(fields) });
    const assertionForm = async (extra: Record<string, string> = {}) => ({
      grant_type: 'client_credentials',
      client_assertion_type: CLIENT_ASSERTION_TYPE,
      client_assertion: await clientAssertion(key, partner.login, BASE),
      ...extra,
    });

    it('issues a bearer token for a private_key_jwt assertion, no-store, with iss = the issuer and client_id = the login', async () => {
      const response = await post('/api/v1/oauth/token', await assertionForm());
      assert.equal(response.statusCode, 200, response.body);
      assert.equal(response.headers['cache-control'], 'no-store');
      assert.equal(response.headers.pragma, 'no-cache');
      const body = response.json();
      assert.deepEqual(Object.keys(body).sort(), ['access_token', 'expires_in', 'token_type']);
      assert.equal(body.token_type, 'Bearer');
      assert.equal(body.expires_in, 600);
      const jwks = (await t.app.inject({ method: 'GET', url: '/.well-known/jwks.json' })).json();
      const { payload } = await jwtVerify(body.access_token, createLocalJWKSet(jwks), { issuer: BASE, audience: 'partner-api', typ: 'at+jwt' });
      assert.equal(payload.client_id, partner.login);
      assert.equal(payload.cnf, undefined);
      const banks = await t.app.inject({ method: 'POST', url: '/partner/provider/sbp/banks/', headers: { authorization: `Bearer ${body.access_token}` } });
      assert.equal(banks.statusCode, 200);
    });

    it('when aud is the token endpoint URL, then invalid_client (only the issuer, as a single string: test/security/client-assertion-audience.test.ts)', async () => {
      const response = await post('/api/v1/oauth/token', { ...(await assertionForm()), client_assertion: await clientAssertion(key, partner.login, TOKEN_URL) });
      assert.equal(response.statusCode, 401, response.body);
      assert.equal(response.json().error, 'invalid_client');
    });

    it("binds the token to the DPoP proof's key: token_type DPoP and cnf.jkt", async () => {
      const dpopKey = await testKey('EdDSA');
      const response = await post('/api/v1/oauth/token', await assertionForm(), { dpop: await dpopProof(dpopKey, 'POST', TOKEN_URL) });
      assert.equal(response.statusCode, 200, response.body);
      const body = response.json();
      assert.equal(body.token_type, 'DPoP');
      const jwks = (await t.app.inject({ method: 'GET', url: '/.well-known/jwks.json' })).json();
      const { payload } = await jwtVerify(body.access_token, createLocalJWKSet(jwks));
      assert.deepEqual(payload.cnf, { jkt: await calculateJwkThumbprint(dpopKey.publicJwk) });
    });

    it('issues a token for client_secret_basic and client_secret_post with the API password', async () => {
      const basic = Buffer.from(`${encodeURIComponent(partner.login)}:${encodeURIComponent(partner.password).replace(/%20/g, '+')}`).toString('base64');
      const viaBasic = await post('/api/v1/oauth/token', { grant_type: 'client_credentials' }, { authorization: `Basic ${basic}` });
      assert.equal(viaBasic.statusCode, 200, viaBasic.body);
      const viaPost = await post('/api/v1/oauth/token', { grant_type: 'client_credentials', client_id: partner.login, client_secret: partner.password });
      assert.equal(viaPost.statusCode, 200, viaPost.body);
    });

    it('answers RFC 6749 errors: invalid_client 401, unsupported_grant_type, invalid_request for two methods, none, a repeated parameter', async () => {
      const wrong = await post('/api/v1/oauth/token', { grant_type: 'client_credentials', client_id: partner.login, client_secret: 'wrong password 123' });
      assert.equal(wrong.statusCode, 401);
      assert.deepEqual(wrong.json(), { error: 'invalid_client', error_description: 'Client authentication failed', description_status: texts.unauthorized });
      const grant = await post('/api/v1/oauth/token', { ...(await assertionForm()), grant_type: 'password' });
      assert.equal(grant.statusCode, 400);
      assert.equal(grant.json().error, 'unsupported_grant_type');
      const two = await post('/api/v1/oauth/token', await assertionForm({ client_id: partner.login, client_secret: partner.password }));
      assert.equal(two.statusCode, 400);
      assert.equal(two.json().error, 'invalid_request');
      const none = await post('/api/v1/oauth/token', { grant_type: 'client_credentials' });
      assert.equal(none.statusCode, 401);
      assert.equal(none.json().error, 'invalid_client');
      const repeated = await t.app.inject({ method: 'POST', url: '/api/v1/oauth/token', headers: FORM_HEADERS, payload: 'grant_type=client_credentials&grant_type=client_credentials' });
      assert.equal(repeated.statusCode, 400);
      assert.equal(repeated.json().error, 'invalid_request');
      const missing = await post('/api/v1/oauth/token', { client_id: partner.login, client_secret: partner.password });
      assert.equal(missing.statusCode, 400);
      assert.equal(missing.json().error, 'invalid_request');
      const json = await t.app.inject({ method: 'POST', url: '/api/v1/oauth/token', payload: { grant_type: 'client_credentials' } });
      assert.equal(json.statusCode, 400);
      assert.equal(json.json().error, 'invalid_request');
    });

    const introspect = (token: string, fields: Record<string, string> = { client_id: partner.login, client_secret: partner.password }) =>
      post('/api/v1/oauth/introspect', { token, ...fields });
    const revoke = (token: string, fields: Record<string, string> = { client_id: partner.login, client_secret: partner.password }) =>
      post('/api/v1/oauth/revoke', { token, ...fields });

    it("introspects the caller's own token, bound or not, and nothing else", async () => {
      const dpopKey = await testKey();
      const bearer = (await post('/api/v1/oauth/token', await assertionForm())).json();
      const bound = (await post('/api/v1/oauth/token', await assertionForm(), { dpop: await dpopProof(dpopKey, 'POST', TOKEN_URL) })).json();
      const own = await introspect(bearer.access_token);
      assert.equal(own.statusCode, 200);
      assert.equal(own.headers['cache-control'], 'no-store');
      const body = own.json();
      assert.equal(body.active, true);
      assert.equal(body.client_id, partner.login);
      assert.equal(body.sub, partner.login);
      assert.equal(body.iss, BASE);
      assert.equal(body.aud, 'partner-api');
      assert.equal(body.token_type, 'Bearer');
      assert.equal(body.exp - body.iat, 600);
      assert.equal(body.cnf, undefined);
      const boundAnswer = (await introspect(bound.access_token, { client_assertion_type: CLIENT_ASSERTION_TYPE, client_assertion: await clientAssertion(key, partner.login, BASE) })).json();
      assert.equal(boundAnswer.token_type, 'DPoP');
      assert.deepEqual(boundAnswer.cnf, { jkt: await calculateJwkThumbprint(dpopKey.publicJwk) });
      const other = await t.addPartner();
      const otherToken = (await t.app.inject({ method: 'POST', url: '/api/v1/login/', payload: other })).json().access_token;
      assert.deepEqual((await introspect(otherToken)).json(), { active: false });
      assert.deepEqual((await introspect('garbage')).json(), { active: false });
      assert.deepEqual((await introspect(`${bearer.access_token.slice(0, -4)}AAAA`)).json(), { active: false });
      const refused = await introspect(bearer.access_token, { client_id: partner.login, client_secret: 'wrong password 9' });
      assert.equal(refused.statusCode, 401);
      assert.equal(refused.json().error, 'invalid_client');
    });

    it("revokes the caller's own token everywhere, answers 200 for anything else and leaves another partner's token working", async () => {
      const mine = (await post('/api/v1/oauth/token', await assertionForm())).json().access_token;
      const other = await t.addPartner();
      const theirs = (await t.app.inject({ method: 'POST', url: '/api/v1/login/', payload: other })).json().access_token;
      const foreign = await revoke(theirs);
      assert.equal(foreign.statusCode, 200);
      assert.equal((await t.app.inject({ method: 'POST', url: '/partner/provider/sbp/banks/', headers: { authorization: `Bearer ${theirs}` } })).statusCode, 200);
      assert.equal((await revoke('not-a-token')).statusCode, 200);
      assert.equal((await revoke(mine)).statusCode, 200);
      const refused = await t.app.inject({ method: 'POST', url: '/partner/provider/sbp/banks/', headers: { authorization: `Bearer ${mine}` } });
      assert.equal(refused.statusCode, 401);
      assert.deepEqual((await introspect(mine)).json(), { active: false });
      assert.equal((await revoke(mine)).statusCode, 200);
    });

    it('stores no family per client-credentials token: one is written, revoked, only when its token is revoked or logged out', async () => {
      const familiesOfPartner = async () =>
        Number((await t.handle.db.selectFrom('token_families').select((eb) => eb.fn.countAll().as('n')).where('partner_id', '=', partner.id).executeTakeFirstOrThrow()).n);
      const before = await familiesOfPartner();
      const tokens: string[] = [];
      for (let i = 0; i < 5; i += 1) tokens.push((await post('/api/v1/oauth/token', await assertionForm())).json().access_token);
      assert.equal(await familiesOfPartner(), before);
      const banks = (token: string) => t.app.inject({ method: 'POST', url: '/partner/provider/sbp/banks/', headers: { authorization: `Bearer ${token}` } });
      // Seen live first, so that a remembered "no family" cannot outlive the revocation.
      for (const token of tokens) assert.equal((await banks(token)).statusCode, 200);
      assert.equal((await revoke(tokens[0]!)).statusCode, 200);
      const logout = await t.app.inject({ method: 'POST', url: '/api/v1/logout/', headers: { authorization: `Bearer ${tokens[1]}` } });
      assert.equal(logout.statusCode, 204, logout.body);
      assert.equal(await familiesOfPartner(), before + 2);
      assert.equal((await banks(tokens[0]!)).statusCode, 401);
      assert.equal((await banks(tokens[1]!)).statusCode, 401);
      assert.deepEqual((await introspect(tokens[1]!)).json(), { active: false });
      assert.equal((await banks(tokens[2]!)).statusCode, 200);
      assert.equal((await introspect(tokens[2]!)).json().active, true);
    });

    it('binds a login to a DPoP key: banks, refresh (same key only) and logout all need its proofs', async () => {
      const dpopKey = await testKey();
      const loginUrl = `${BASE}/api/v1/login/`;
      const refreshUrl = `${BASE}/api/v1/token/refresh/`;
      const banksUrl = `${BASE}/partner/provider/sbp/banks/`;
      const login = await t.app.inject({ method: 'POST', url: '/api/v1/login/', headers: { dpop: await dpopProof(dpopKey, 'POST', loginUrl) }, payload: partner });
      assert.equal(login.statusCode, 200, login.body);
      const session = login.json();
      assert.equal(session.token_type, 'DPoP');
      const banks = await t.app.inject({
        method: 'POST',
        url: '/partner/provider/sbp/banks/?partnerName=' + partner.login,
        headers: { authorization: `DPoP ${session.access_token}`, dpop: await dpopProof(dpopKey, 'POST', banksUrl, { accessToken: session.access_token }) },
      });
      assert.equal(banks.statusCode, 200, banks.body);
      const another = await testKey();
      const stolen = await t.app.inject({ method: 'POST', url: '/api/v1/token/refresh/', headers: { dpop: await dpopProof(another, 'POST', refreshUrl) }, payload: { refresh_token: session.refresh_token } });
      assert.equal(stolen.statusCode, 401);
      const relogin = (await t.app.inject({ method: 'POST', url: '/api/v1/login/', headers: { dpop: await dpopProof(dpopKey, 'POST', loginUrl) }, payload: partner })).json();
      const withoutProof = await t.app.inject({ method: 'POST', url: '/api/v1/token/refresh/', payload: { refresh_token: relogin.refresh_token } });
      assert.equal(withoutProof.statusCode, 401);
      const third = (await t.app.inject({ method: 'POST', url: '/api/v1/login/', headers: { dpop: await dpopProof(dpopKey, 'POST', loginUrl) }, payload: partner })).json();
      const refreshed = await t.app.inject({ method: 'POST', url: '/api/v1/token/refresh/', headers: { dpop: await dpopProof(dpopKey, 'POST', refreshUrl) }, payload: { refresh_token: third.refresh_token } });
      assert.equal(refreshed.statusCode, 200, refreshed.body);
      assert.equal(refreshed.json().token_type, 'DPoP');
      const token = refreshed.json().access_token;
      const bearerLogout = await t.app.inject({ method: 'POST', url: '/api/v1/logout/', headers: { authorization: `Bearer ${token}` } });
      assert.equal(bearerLogout.statusCode, 401);
      const logout = await t.app.inject({
        method: 'POST',
        url: '/api/v1/logout/',
        headers: { authorization: `DPoP ${token}`, dpop: await dpopProof(dpopKey, 'POST', `${BASE}/api/v1/logout/`, { accessToken: token }) },
      });
      assert.equal(logout.statusCode, 204, logout.body);
      const after = await t.app.inject({
        method: 'POST',
        url: '/partner/provider/sbp/banks/',
        headers: { authorization: `DPoP ${token}`, dpop: await dpopProof(dpopKey, 'POST', banksUrl, { accessToken: token }) },
      });
      assert.equal(after.statusCode, 401);
      assert.equal(after.headers['www-authenticate'], 'DPoP error="invalid_token"');
    });

    it('records token requests in the audit trail and the metrics, with no secret', async () => {
      const assertion = await clientAssertion(key, partner.login, BASE);
      const dpop = await dpopProof(await testKey(), 'POST', TOKEN_URL);
      const response = await post('/api/v1/oauth/token', { grant_type: 'client_credentials', client_assertion_type: CLIENT_ASSERTION_TYPE, client_assertion: assertion }, { dpop });
      assert.equal(response.statusCode, 200);
      await t.gateway.admin.audit.flush();
      const entries = await t.gateway.admin.audit.query({ partner: partner.login, action: 'token' } as never);
      assert.ok(entries.some((entry) => entry.outcome === 'success' && (entry.details as { method?: string } | null)?.method === 'private_key_jwt' && (entry.details as { bound?: boolean }).bound === true),
        JSON.stringify(entries.map((entry) => entry.details)));
      const metrics = await t.gateway.runtime.metrics.render();
      assert.match(metrics, /partner_gateway_oauth_token_requests_total\{method="private_key_jwt",outcome="issued"\} \d+/);
      assert.match(metrics, /partner_gateway_oauth_token_requests_total\{method="client_secret_post",outcome="refused"\} \d+/);
      const everything = JSON.stringify(entries) + t.logs.join('');
      for (const [name, secret] of Object.entries({ assertion, dpop, token: response.json().access_token, password: partner.password })) {
        const at = everything.indexOf(secret);
        assert.equal(at, -1, `${name} found: ${everything.slice(Math.max(0, at - 300), at + 20)}`);
      }
    });

    it('refuses a proven client from a foreign address or once blocked with the login 403s', async () => {
      const foreign = await t.app.inject({ method: 'POST', url: '/api/v1/oauth/token', headers: FORM_HEADERS, payload: form(await assertionForm()), remoteAddress: '203.0.113.9' });
      assert.equal(foreign.statusCode, 403);
      assert.deepEqual(foreign.json(), { description_status: texts.ipNotAllowed });
      const blocked = await t.addPartner();
      const blockedKey = await testKey();
      await registerKeys(t.gateway, blocked.login, [blockedKey]);
      await t.gateway.admin.partners.update(blocked.login, { status: 'blocked' });
      const response = await post('/api/v1/oauth/token', {
        grant_type: 'client_credentials',
        client_assertion_type: CLIENT_ASSERTION_TYPE,
        client_assertion: await clientAssertion(blockedKey, blocked.login, BASE),
      });
      assert.equal(response.statusCode, 403);
      assert.deepEqual(response.json(), { description_status: texts.blocked });
    });

    it('publishes RFC 8414 metadata naming the issuer of the tokens and every endpoint', async () => {
      const response = await t.app.inject({ method: 'GET', url: '/.well-known/oauth-authorization-server' });
      assert.equal(response.statusCode, 200);
      assert.equal(response.headers['cache-control'], 'public, max-age=300');
      const metadata = response.json();
      assert.equal(metadata.issuer, BASE);
      assert.equal(metadata.token_endpoint, TOKEN_URL);
      assert.equal(metadata.jwks_uri, `${BASE}/.well-known/jwks.json`);
      assert.equal(metadata.introspection_endpoint, `${BASE}/api/v1/oauth/introspect`);
      assert.equal(metadata.revocation_endpoint, `${BASE}/api/v1/oauth/revoke`);
      assert.deepEqual(metadata.grant_types_supported, ['client_credentials']);
      assert.deepEqual(metadata.token_endpoint_auth_methods_supported, ['private_key_jwt', 'client_secret_basic', 'client_secret_post']);
      assert.deepEqual(metadata.token_endpoint_auth_signing_alg_values_supported, ['ES256', 'EdDSA', 'Ed25519', 'PS256']);
      assert.deepEqual(metadata.dpop_signing_alg_values_supported, ['ES256', 'EdDSA', 'Ed25519', 'PS256']);
      assert.deepEqual(metadata.introspection_endpoint_auth_methods_supported, metadata.token_endpoint_auth_methods_supported);
      assert.deepEqual(metadata.revocation_endpoint_auth_methods_supported, metadata.token_endpoint_auth_methods_supported);
    });
  });
}
