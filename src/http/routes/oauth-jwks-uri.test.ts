import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { JWK } from 'jose';
import { testBackends } from '../../../test/support/test-databases.js';
import { startTestGateway, type TestGateway } from '../../../test/support/test-gateway.js';
import { CLIENT_ASSERTION_TYPE, FORM_HEADERS, clientAssertion, form, testKey, type TestKey } from '../../../test/support/oauth-client.js';

const BASE = 'http://127.0.0.1:8080';

for (const backend of testBackends().slice(0, 1)) {
  describe(`the token endpoint with a partner's jwksUri on ${backend.name}`, () => {
    let t: TestGateway;
    let server: Server;
    let published: { status: number; keys: JWK[] };
    let clock = Date.now();
    let partner: { login: string; password: string };
    let first: TestKey;
    before(async () => {
      first = await testKey();
      published = { status: 200, keys: [first.publicJwk] };
      server = createServer((_request, response) => {
        response.writeHead(published.status, { 'content-type': 'application/json', 'cache-control': 'max-age=3600' }).end(JSON.stringify({ keys: published.keys }));
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      t = await startTestGateway(backend, { now: () => clock });
      partner = await t.addPartner();
      await t.gateway.admin.partnerKeys.set(partner.login, { jwksUri: `http://127.0.0.1:${(server.address() as AddressInfo).port}/jwks.json` });
      await t.gateway.admin.partners.update(partner.login, { authMethods: ['private_key_jwt'] });
    });
    after(async () => {
      await t.close();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    });

    const token = async (key: TestKey) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/oauth/token',
        headers: FORM_HEADERS,
        payload: form({ grant_type: 'client_credentials', client_assertion_type: CLIENT_ASSERTION_TYPE, client_assertion: await clientAssertion(key, partner.login, BASE, { now: clock }) }),
      });
    const lastReason = async () => {
      await t.gateway.admin.audit.flush();
      const entries = await t.gateway.admin.audit.query({ partner: partner.login, action: 'token' } as never);
      return entries.sort((a, b) => +new Date(b.at) - +new Date(a.at))[0]?.reason;
    };

    it('verifies assertions with the published keys, and picks up a rolled key at most once a minute', async () => {
      assert.equal((await token(first)).statusCode, 200);
      const rolled = await testKey();
      published = { status: 200, keys: [first.publicJwk, rolled.publicJwk] };
      // The set was fetched moments ago: a new kid does not make the gateway fetch it again yet.
      assert.equal((await token(rolled)).statusCode, 401);
      clock += 61_000;
      const response = await token(rolled);
      assert.equal(response.statusCode, 200, response.body);
      const view = await t.gateway.admin.partners.get(partner.login);
      assert.equal(view.jwks?.fetchedAt, new Date(clock).toISOString(), 'the refetch is recorded on the partner');
      assert.equal(view.jwks?.keys.length, 2);
    });

    it('refuses assertions once the jwksUri has not answered for a day, audited as jwks_unavailable', async () => {
      published = { status: 503, keys: [] };
      clock += 25 * 3600_000;
      const stranger = await testKey();
      assert.equal((await token(stranger)).statusCode, 401);
      assert.equal(await lastReason(), 'jwks_unavailable');
    });
  });
}
