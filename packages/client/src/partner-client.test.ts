import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeProtectedHeader } from 'jose';
import { testBackends } from '../../../test/support/test-databases.js';
import { startTestGateway, type TestGateway } from '../../../test/support/test-gateway.js';
import { PartnerClient } from './partner-client.js';
import { testClient } from '../test/test-client.js';

for (const backend of testBackends()) {
  describe(`PartnerClient against a listening gateway on ${backend.name}`, () => {
    let t: TestGateway;
    let url: string;
    let partner: { login: string; password: string };
    let seeded: Array<{ name: string; bic: string }>;
    before(async () => {
      t = await startTestGateway(backend);
      url = await t.app.listen({ host: '127.0.0.1', port: 0 });
      partner = await t.addPartner();
      seeded = (await t.gateway.admin.banks.list()).map(({ name, bic }) => ({ name, bic }));
    });
    after(() => t.close());

    it('logs in and returns the token, its lifetime and its expiry by the client clock', async () => {
      const { client, logins } = testClient(url, partner, { internals: { now: () => Date.UTC(2030, 0, 1) } });
      const token = await client.login();
      assert.match(token.accessToken, /^[\w-]+\.[\w-]+\.[\w-]+$/);
      assert.equal(token.expiresIn, 900);
      assert.equal(token.expiresAt.toISOString(), '2030-01-01T00:15:00.000Z');
      await client.login();
      assert.equal(logins(), 2, 'login() always logs in afresh');
    });

    it('lists the banks with the bearer token, logging in once for several calls', async () => {
      const { client, calls, logins } = testClient(url, partner);
      for (let i = 0; i < 3; i++) assert.deepEqual(await client.banks(), seeded);
      assert.equal(logins(), 1);
      assert.equal(calls.filter((call) => call.path === '/partner/provider/sbp/banks/').length, 3);
    });

    it('uses the token of an explicit login() for the next banks() call', async () => {
      const { client, logins } = testClient(url, partner);
      await client.login();
      await client.banks();
      assert.equal(logins(), 1);
    });

    it('lists the banks with an encrypted password: a new JWE with a fresh jti and a current iat every call', async () => {
      const { client, calls, logins } = testClient(url, partner);
      for (let i = 0; i < 3; i++) assert.deepEqual(await client.banksWithPassword(), seeded);
      const jwks = (await (await fetch(`${url}/.well-known/jwks.json`)).json()) as { keys: Array<{ use: string; kid: string }> };
      const encKid = jwks.keys.find((key) => key.use === 'enc')?.kid;
      const headers = calls
        .filter((call) => call.path === '/partner/provider/sbp/banks/')
        .map((call) => {
          assert.equal(call.query.get('partnerName'), partner.login);
          assert.equal(call.query.get('useAuthByCert'), 'Y');
          return decodeProtectedHeader(call.query.get('partnerPassword')!);
        });
      assert.equal(headers.length, 3);
      assert.equal(new Set(headers.map((header) => header.jti)).size, 3);
      for (const header of headers) {
        assert.deepEqual({ alg: header.alg, enc: header.enc, kid: header.kid }, { alg: 'RSA-OAEP-256', enc: 'A256GCM', kid: encKid });
        assert.ok(Number.isInteger(header.iat) && Math.abs((header.iat as number) - Date.now() / 1000) < 60);
      }
      assert.equal(calls.filter((call) => call.path === '/.well-known/jwks.json').length, 1, 'the key set is cached');
      assert.equal(logins(), 0);
    });

    it('fetches the key set once for many concurrent encrypted-password calls', async () => {
      const { client, calls } = testClient(url, partner);
      const results = await Promise.all(Array.from({ length: 10 }, () => client.banksWithPassword()));
      assert.ok(results.every((banks) => banks.length === seeded.length));
      assert.equal(calls.filter((call) => call.path === '/.well-known/jwks.json').length, 1);
    });

    it('logout ends the session at the gateway: the old access and refresh tokens are refused, and the next banks() logs in again', async () => {
      const { client, logins, logouts, issuedRefreshTokens } = testClient(url, partner);
      const { accessToken } = await client.login();
      await client.logout();
      assert.equal(logouts(), 1);
      const banks = await fetch(`${url}/partner/provider/sbp/banks/`, { method: 'POST', headers: { authorization: `Bearer ${accessToken}` } });
      assert.equal(banks.status, 401);
      const refresh = await fetch(`${url}/api/v1/token/refresh/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ refresh_token: issuedRefreshTokens[0] }) });
      assert.equal(refresh.status, 401);
      assert.deepEqual(await client.banks(), seeded);
      assert.equal(logins(), 2);
    });

    it('logout sends nothing without a session, and nothing more the second time', async () => {
      const { client, calls, logouts } = testClient(url, partner);
      await client.logout();
      assert.equal(calls.length, 0);
      await client.login();
      await client.logout();
      await client.logout();
      assert.equal(logouts(), 1);
    });

    it('logout treats a 401 as already logged out, forgets the tokens and succeeds', async () => {
      const other = await t.addPartner();
      const { client, logins, refreshes, logouts } = testClient(url, other);
      await client.login();
      // Blocking revokes every token of the partner; unblocking does not bring them back.
      await t.gateway.admin.partners.update(other.login, { status: 'blocked' });
      await t.gateway.admin.partners.update(other.login, { status: 'active' });
      await client.logout();
      assert.deepEqual({ logouts: logouts(), refreshes: refreshes() }, { logouts: 1, refreshes: 1 }, 'the refresh token is tried, and refused too');
      await client.banks();
      assert.equal(logins(), 2);
    });

    it('joins paths onto base URLs with or without a trailing slash, and uses the provider segment given', async () => {
      const { client, calls } = testClient(`${url}/`, partner, { provider: 'provider' });
      await client.banks();
      assert.deepEqual(
        calls.map((call) => call.path),
        ['/api/v1/login/', '/partner/provider/sbp/banks/'],
      );
    });
  });
}

describe('PartnerClient options', () => {
  const valid = { authUrl: 'http://127.0.0.1:1', apiUrl: 'http://127.0.0.1:1', login: 'acme', password: 'a long password' };

  it('refuses a missing login or password, a non-http URL, negative retries and a zero timeout', () => {
    assert.throws(() => new PartnerClient({ ...valid, password: '' }), /login and a password/);
    assert.throws(() => new PartnerClient({ ...valid, authUrl: 'ftp://example.com' }), /authUrl must be an http or https URL/);
    assert.throws(() => new PartnerClient({ ...valid, apiUrl: 'not a url' }), /apiUrl is not a URL/);
    assert.throws(() => new PartnerClient({ ...valid, retries: -1 }), /retries/);
    assert.throws(() => new PartnerClient({ ...valid, timeoutMs: 0 }), /timeoutMs/);
  });

  it('keeps the password out of what inspecting or serialising the client shows', async () => {
    const { inspect } = await import('node:util');
    const client = new PartnerClient(valid);
    assert.ok(!inspect(client, { showHidden: true, depth: 5 }).includes(valid.password));
    assert.ok(!JSON.stringify(client).includes(valid.password));
  });
});
