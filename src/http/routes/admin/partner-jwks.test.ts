import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { testBackends } from '../../../../test/support/test-databases.js';
import { partnerPublicJwk, serveJwks } from '../../../../test/support/partner-jwk.js';
import { startTestGateway, TEST_ADMIN_TOKEN, type TestGateway } from '../../../../test/support/test-gateway.js';

for (const backend of testBackends()) {
  describe(`admin partner keys on ${backend.name}`, () => {
    let t: TestGateway;
    before(async () => {
      t = await startTestGateway(backend);
    });
    after(() => t.close());

    const admin = (method: string, url: string, payload?: unknown) =>
      t.admin.inject({ method: method as 'GET', url, headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` }, ...(payload === undefined ? {} : { payload: payload as object }) });
    const lastAudit = async (action: string, partner: string) =>
      (await admin('GET', `/admin/v1/audit?action=${action}&partner=${partner}&limit=1`)).json().entries[0];

    it('registers EC P-256, Ed25519 and RSA keys and shows only their public identity', async () => {
      const partner = await t.addPartner();
      const ec = await partnerPublicJwk('ES256', 'ec-1');
      const ed = await partnerPublicJwk('EdDSA', 'ed-1');
      const rsa = await partnerPublicJwk('PS256', 'rsa-1');
      const response = await admin('PUT', `/admin/v1/partners/${partner.login}/jwks`, { keys: [ec.jwk, ed.jwk, rsa.jwk] });
      assert.equal(response.statusCode, 200);
      assert.deepEqual(response.json(), {
        keys: [
          { kid: 'ec-1', kty: 'EC', crv: 'P-256', alg: 'ES256', thumbprint: ec.thumbprint },
          { kid: 'ed-1', kty: 'OKP', crv: 'Ed25519', alg: 'EdDSA', thumbprint: ed.thumbprint },
          { kid: 'rsa-1', kty: 'RSA', size: 2048, alg: 'PS256', thumbprint: rsa.thumbprint },
        ],
        jwksUri: null,
        fetchedAt: null,
      });
      const shown = (await admin('GET', `/admin/v1/partners/${partner.login}`)).json();
      assert.deepEqual(shown.jwks, response.json());
      for (const material of [ec.jwk.x, ed.jwk.x, rsa.jwk.n]) assert.ok(!JSON.stringify(shown).includes(material!));
    });

    it('refuses with 422 naming each bad key, and keeps the keys the partner had', async () => {
      const partner = await t.addPartner();
      const good = await partnerPublicJwk('ES256', 'kept');
      assert.equal((await admin('PUT', `/admin/v1/partners/${partner.login}/jwks`, { keys: [good.jwk] })).statusCode, 200);
      const fine = await partnerPublicJwk('ES256', 'fine');
      const twin = await partnerPublicJwk('EdDSA', 'fine');
      const weak = await partnerPublicJwk('RS1024', 'weak');
      const p384 = await partnerPublicJwk('ES384', 'p384');
      const secret = await partnerPublicJwk('ES256', 'secret');
      const response = await admin('PUT', `/admin/v1/partners/${partner.login}/jwks`, { keys: [fine.jwk, twin.jwk, weak.jwk, p384.jwk, secret.privateJwk] });
      assert.equal(response.statusCode, 422);
      const problems = response.json().errors as Array<{ field: string; message: string }>;
      assert.deepEqual(
        problems.map((problem) => problem.field),
        ['keys[1] (kid "fine")', 'keys[2] (kid "weak")', 'keys[3] (kid "p384")', 'keys[4] (kid "secret")'],
      );
      assert.match(problems[0]!.message, /duplicate kid/);
      assert.match(problems[1]!.message, /at least 2048 bits \(this one has 1024\)/);
      assert.match(problems[2]!.message, /P-256/);
      assert.match(problems[3]!.message, /private key material/);
      assert.ok(!response.body.includes(secret.privateJwk.d!), 'the private key is never echoed');
      assert.deepEqual((await admin('GET', `/admin/v1/partners/${partner.login}`)).json().jwks.keys.map((key: { kid: string }) => key.kid), ['kept']);
      assert.equal((await admin('PUT', `/admin/v1/partners/${partner.login}/jwks`, { keys: [] })).statusCode, 422);
      assert.equal((await admin('PUT', `/admin/v1/partners/${partner.login}/jwks`, { keys: [good.jwk], jwksUri: 'https://x.example/' })).statusCode, 422);
      assert.equal((await admin('PUT', `/admin/v1/partners/${partner.login}/jwks`, {})).statusCode, 422);
    });

    it('registers a jwksUri after fetching it once, and refuses a URL that serves no valid set', async () => {
      const partner = await t.addPartner();
      const key = await partnerPublicJwk('ES256', 'remote-1');
      let served = { status: 200, text: JSON.stringify({ keys: [key.jwk] }) };
      const server = await serveJwks(() => served);
      try {
        const response = await admin('PUT', `/admin/v1/partners/${partner.login}/jwks`, { jwksUri: server.url });
        assert.equal(response.statusCode, 200);
        const view = response.json();
        assert.equal(view.jwksUri, server.url);
        assert.ok(Math.abs(Date.parse(view.fetchedAt) - Date.now()) < 60_000);
        assert.deepEqual(view.keys, [{ kid: 'remote-1', kty: 'EC', crv: 'P-256', alg: 'ES256', thumbprint: key.thumbprint }]);
        assert.equal(server.hits(), 1);

        for (const bad of [{ status: 404, text: '{}' }, { status: 200, text: 'not json' }, { status: 200, text: JSON.stringify({ keys: [key.privateJwk] }) }]) {
          served = bad;
          const refused = await admin('PUT', `/admin/v1/partners/${partner.login}/jwks`, { jwksUri: server.url });
          assert.equal(refused.statusCode, 422, bad.text);
          assert.equal(refused.json().errors[0].field, 'jwksUri');
          assert.match(refused.json().errors[0].message, /did not serve a valid JWK Set/);
        }
        assert.equal((await admin('GET', `/admin/v1/partners/${partner.login}`)).json().jwks.fetchedAt, view.fetchedAt, 'a refused URL changes nothing');
      } finally {
        await server.close();
      }
      for (const uri of ['http://192.0.2.10/jwks.json', 'http://partner.example/jwks.json', 'ftp://127.0.0.1/jwks.json', 'https://user:pw@partner.example/jwks.json', 'not a url']) {
        const refused = await admin('PUT', `/admin/v1/partners/${partner.login}/jwks`, { jwksUri: uri });
        assert.equal(refused.statusCode, 422, uri);
        assert.equal(refused.json().errors[0].field, 'jwksUri');
      }
    });

    it('removes the keys (204, also when there are none), and 404s an unknown partner', async () => {
      const partner = await t.addPartner();
      const key = await partnerPublicJwk('EdDSA', 'to-remove');
      await admin('PUT', `/admin/v1/partners/${partner.login}/jwks`, { keys: [key.jwk] });
      assert.equal((await admin('DELETE', `/admin/v1/partners/${partner.login}/jwks`)).statusCode, 204);
      assert.equal((await admin('GET', `/admin/v1/partners/${partner.login}`)).json().jwks, null);
      assert.equal((await admin('DELETE', `/admin/v1/partners/${partner.login}/jwks`)).statusCode, 204);
      const missing = await admin('PUT', '/admin/v1/partners/nobody-here/jwks', { keys: [key.jwk] });
      assert.equal(missing.statusCode, 404);
      assert.equal(missing.json().description_status, 'Partner nobody-here does not exist');
      assert.equal((await admin('DELETE', '/admin/v1/partners/nobody-here/jwks')).statusCode, 404);
    });

    it('ends the partner’s sessions when a key it had is dropped or the keys are removed, not when keys are added', async () => {
      const partner = await t.addPartner();
      let token = '';
      const newSession = async () => {
        token = (await t.app.inject({ method: 'POST', url: '/api/v1/login/', payload: partner })).json().access_token;
      };
      const banks = async () => (await t.app.inject({ method: 'POST', url: '/partner/provider/sbp/banks/', headers: { authorization: `Bearer ${token}` } })).statusCode;
      const one = await partnerPublicJwk('ES256', 'one');
      const two = await partnerPublicJwk('EdDSA', 'two');
      await newSession();
      await admin('PUT', `/admin/v1/partners/${partner.login}/jwks`, { keys: [one.jwk] });
      await admin('PUT', `/admin/v1/partners/${partner.login}/jwks`, { keys: [one.jwk, two.jwk] });
      await admin('PUT', `/admin/v1/partners/${partner.login}/jwks`, { keys: [two.jwk, { ...one.jwk }] });
      assert.equal(await banks(), 200, 'adding a key, or registering the same ones again, ends nothing');
      await admin('PUT', `/admin/v1/partners/${partner.login}/jwks`, { keys: [two.jwk] });
      assert.equal(await banks(), 401, 'dropping key one ends the sessions');
      await newSession();
      assert.equal(await banks(), 200);
      assert.equal((await admin('DELETE', `/admin/v1/partners/${partner.login}/jwks`)).statusCode, 204);
      assert.equal(await banks(), 401, 'removing the keys ends the sessions');
      await newSession();
      assert.equal((await admin('DELETE', `/admin/v1/partners/${partner.login}/jwks`)).statusCode, 204);
      assert.equal(await banks(), 200, 'removing no keys ends nothing');
    });

    it('audits registrations and removals with the keys before and after, never the key material', async () => {
      const partner = await t.addPartner();
      const first = await partnerPublicJwk('ES256', 'audit-1');
      const second = await partnerPublicJwk('PS256', 'audit-2');
      await admin('PUT', `/admin/v1/partners/${partner.login}/jwks`, { keys: [first.jwk] });
      await admin('PUT', `/admin/v1/partners/${partner.login}/jwks`, { keys: [second.jwk] });
      const set = await lastAudit('partner.jwks.set', partner.login);
      assert.equal(set.outcome, 'success');
      assert.equal(set.details.sessionsEnded, true, 'audit-1 was dropped');
      assert.deepEqual(set.details.before.keys.map((key: { thumbprint: string }) => key.thumbprint), [first.thumbprint]);
      assert.deepEqual(set.details.after.keys, [{ kid: 'audit-2', kty: 'RSA', size: 2048, alg: 'PS256', thumbprint: second.thumbprint }]);
      assert.ok(!JSON.stringify(set).includes(second.jwk.n!) && !JSON.stringify(set).includes(first.jwk.x!));

      await admin('PUT', `/admin/v1/partners/${partner.login}/jwks`, { keys: [first.privateJwk] });
      const refused = await lastAudit('partner.jwks.set', partner.login);
      assert.equal(refused.outcome, 'failure');
      assert.equal(refused.status, 422);
      assert.ok(!JSON.stringify(refused).includes(first.privateJwk.d!));

      await admin('DELETE', `/admin/v1/partners/${partner.login}/jwks`);
      const removed = await lastAudit('partner.jwks.delete', partner.login);
      assert.deepEqual(removed.details, { before: set.details.after, after: null, sessionsEnded: true });
    });
  });
}

describe('admin partner keys in production', () => {
  let t: TestGateway;
  before(async () => {
    t = await startTestGateway(testBackends()[0]!, { env: { NODE_ENV: 'production', PUBLIC_URL: 'https://partners.example' } });
  });
  after(() => t.close());

  it('refuses a plain-http jwksUri even to a loopback address, before fetching it', async () => {
    const partner = await t.addPartner();
    const key = await partnerPublicJwk('ES256', 'prod-1');
    const server = await serveJwks(() => ({ text: JSON.stringify({ keys: [key.jwk] }) }));
    try {
      for (const uri of [server.url, server.url.replace('127.0.0.1', 'localhost'), 'http://[::1]/jwks.json']) {
        const refused = await t.admin.inject({ method: 'PUT', url: `/admin/v1/partners/${partner.login}/jwks`, headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` }, payload: { jwksUri: uri } });
        assert.equal(refused.statusCode, 422, uri);
        assert.deepEqual(refused.json().errors, [{ field: 'jwksUri', message: 'must be an https URL' }]);
      }
      assert.equal(server.hits(), 0);
    } finally {
      await server.close();
    }
  });
});
