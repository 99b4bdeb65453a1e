import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { errors, texts } from '../../errors.js';
import { projectFile } from '../../project-root.js';
import { encryptPassword } from '../../../test/support/encrypt-password.js';
import { testBackends } from '../../../test/support/test-databases.js';
import { startTestGateway, type TestGateway } from '../../../test/support/test-gateway.js';
import { jweWindowText } from '../openapi-description.js';

describe('OpenAPI document and reference page', () => {
  let t: TestGateway;
  before(async () => {
    t = await startTestGateway(testBackends()[0]!);
  });
  after(() => t.close());

  it('serves an OpenAPI 3.1 document equal to the committed openapi.json (run scripts/write-openapi.ts after changing a route)', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/openapi.json' });
    assert.equal(response.statusCode, 200);
    const committed = JSON.parse(readFileSync(projectFile('openapi.json'), 'utf8'));
    assert.deepEqual(response.json(), committed);
    assert.equal(committed.openapi, '3.1.0');
  });

  it('documents both operations with every error status and its exact description_status', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const banks = doc.paths['/partner/provider/sbp/banks/'].post;
    assert.deepEqual(Object.keys(banks.responses).filter((status) => /^\d+$/.test(status)).sort(), ['200', '304', '401', '403', '422', '429', '500', '503']);
    const documented = JSON.stringify(banks.responses);
    for (const text of [texts.unauthorized, texts.blocked, texts.ipNotAllowed, texts.rewardTypeUnavailable, texts.notEncrypted, texts.internal, errors.busy().description, errors.shuttingDown().description]) {
      assert.ok(documented.includes(text), text);
    }
    assert.ok(documented.includes('A required parameter partnerName was omitted; repeat the request with correct data'));
    const login = doc.paths['/api/v1/login/'].post;
    assert.deepEqual(Object.keys(login.responses).filter((status) => /^\d+$/.test(status)).sort(), ['200', '400', '401', '403', '413', '415', '422', '429', '500', '503']);
    assert.deepEqual(banks.parameters.map((p: { name: string }) => p.name).sort(), ['fields', 'partnerName', 'partnerPassword', 'useAuthByCert']);
    assert.ok(!('/admin/v1/partners' in doc.paths), 'the admin API is not in the public document');
  });

  it('describes the JWE scheme step by step', async () => {
    const { description } = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json().info;
    for (const part of ['RSA-OAEP-256', 'A256GCM', '"kid"', '"iat"', '"jti"', 'compact serialization', 'No `zip`']) assert.ok(description.includes(part), part);
  });

  it('serves the interactive reference page and its assets without any CDN', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/docs' });
    assert.equal(page.statusCode, 200);
    assert.match(page.headers['content-type'] as string, /text\/html/);
    assert.ok(!/https?:\/\/(?!localhost)[^"']*\.(js|css)/.test(page.body), 'no external script or style');
    const script = /src="\.?\/?([^"]*swagger-ui-bundle\.js)"/.exec(page.body)?.[1];
    assert.ok(script, 'the page loads the bundled Swagger UI');
    const asset = await t.app.inject({ method: 'GET', url: `/docs/${script.replace(/^docs\//, '')}` });
    assert.equal(asset.statusCode, 200);
  });
});

describe('the JWE time window the reference states', () => {
  let t: TestGateway;
  before(async () => {
    t = await startTestGateway(testBackends()[0]!, { env: { JWE_MAX_AGE: '300', JWE_MAX_FUTURE: '10' } });
  });
  after(() => t.close());

  it('is JWE_MAX_AGE seconds in the past to JWE_MAX_FUTURE seconds in the future, and the gateway enforces just that', async () => {
    const { description } = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json().info;
    assert.ok(description.includes(jweWindowText(300, 10)), description);
    const partner = await t.addPartner();
    const jwks = (await t.app.inject({ method: 'GET', url: '/.well-known/jwks.json' })).json();
    const now = Math.floor(Date.now() / 1000);
    // Five seconds inside and outside each edge: the test's clock and the gateway's are the same one.
    for (const [offset, status] of [[-295, 200], [-305, 401], [5, 200], [15, 401]] as const) {
      const jwe = await encryptPassword(partner.password, jwks, { header: { iat: now + offset } });
      const response = await t.app.inject({ method: 'POST', url: '/partner/provider/sbp/banks/', query: { partnerName: partner.login, partnerPassword: jwe, useAuthByCert: 'Y' } });
      assert.equal(response.statusCode, status, `iat = now ${offset >= 0 ? '+' : '-'} ${Math.abs(offset)} s`);
    }
  });
});
