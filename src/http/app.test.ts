import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { describe, it } from 'node:test';
import { texts } from '../errors.js';
import { testBackends } from '../../test/support/test-databases.js';
import { startTestGateway } from '../../test/support/test-gateway.js';

for (const backend of testBackends()) {
  describe(`public app on ${backend.name}`, () => {
    it('answers 500 with the seed text, and readyz 503, while the database is down; never a stack trace', async () => {
      const t = await startTestGateway(backend);
      const partner = await t.addPartner();
      const token = (await t.app.inject({ method: 'POST', url: '/api/v1/login/', payload: partner })).json().access_token;
      const up = await t.app.inject({ method: 'GET', url: '/readyz' });
      assert.equal(up.statusCode, 200);
      assert.deepEqual(up.json(), { status: 'ready', dependencies: { database: { state: 'up' } } });
      await t.handle.close();
      try {
        const login = await t.app.inject({ method: 'POST', url: '/api/v1/login/', payload: partner });
        assert.equal(login.statusCode, 500);
        assert.deepEqual(login.json(), { description_status: texts.internal });
        const banks = await t.app.inject({ method: 'POST', url: '/partner/provider/sbp/banks/', headers: { authorization: `Bearer ${token}` } });
        assert.equal(banks.statusCode, 500);
        assert.deepEqual(banks.json(), { description_status: texts.internal });
        const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
        assert.equal(ready.statusCode, 503);
        assert.deepEqual(ready.json(), { status: 'not_ready', dependencies: { database: { state: 'down' } } });
        assert.equal((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode, 200);
        const errorLines = t.logs.filter((line) => JSON.parse(line).level >= 50);
        assert.ok(errorLines.length >= 2, 'internal failures are logged with context');
        assert.ok(!errorLines.join('').includes(partner.password) && !errorLines.join('').includes(token));
      } finally {
        await t.app.close();
        await t.admin.close();
        await t.gateway.runtime.close(100).catch(() => {});
      }
    });
  });
}

describe('public app on a real listener', () => {
  it('answers an oversized request line with a JSON 431, not a bare socket error', async () => {
    const t = await startTestGateway(testBackends()[0]!);
    try {
      await t.app.listen({ host: '127.0.0.1', port: 0 });
      const { port } = t.app.server.address() as { port: number };
      const response = await new Promise<{ status: number; body: string; type: string }>((resolve, reject) => {
        const request = httpRequest({ host: '127.0.0.1', port, method: 'POST', path: `/partner/provider/sbp/banks/?partnerPassword=${'a'.repeat(20_000)}` }, (res) => {
          let body = '';
          res.on('data', (chunk) => (body += chunk));
          res.on('end', () => resolve({ status: res.statusCode!, body, type: String(res.headers['content-type']) }));
        });
        request.on('error', reject);
        request.end();
      });
      assert.equal(response.status, 431);
      assert.match(response.type, /application\/json/);
      assert.equal(JSON.parse(response.body).description_status, 'The request address or headers are too large; repeat the request with correct data');
    } finally {
      await t.close();
    }
  });

  it('takes the client address from the socket, and from X-Forwarded-For only behind a trusted proxy', async () => {
    const direct = await startTestGateway(testBackends()[0]!);
    const proxied = await startTestGateway(testBackends()[0]!, { env: { TRUST_PROXY: '127.0.0.1' } });
    try {
      for (const t of [direct, proxied]) {
        const partner = await t.addPartner({ ipAllowlist: ['198.51.100.7'] });
        const spoofed = await t.app.inject({ method: 'POST', url: '/api/v1/login/', payload: partner, remoteAddress: '203.0.113.9', headers: { 'x-forwarded-for': '198.51.100.7' } });
        assert.equal(spoofed.statusCode, 403, 'an untrusted peer cannot claim an address');
        const viaProxy = await t.app.inject({ method: 'POST', url: '/api/v1/login/', payload: partner, remoteAddress: '127.0.0.1', headers: { 'x-forwarded-for': '198.51.100.7' } });
        assert.equal(viaProxy.statusCode, t === proxied ? 200 : 403);
      }
    } finally {
      await direct.close();
      await proxied.close();
    }
  });

  it('sends security headers and no-store on every public response, and a cacheable JWKS', async () => {
    const t = await startTestGateway(testBackends()[0]!);
    try {
      const notFound = await t.app.inject({ method: 'GET', url: '/nowhere' });
      assert.equal(notFound.statusCode, 404);
      assert.equal(notFound.headers['x-content-type-options'], 'nosniff');
      assert.equal(notFound.headers['cache-control'], 'no-store');
      const jwks = await t.app.inject({ method: 'GET', url: '/.well-known/jwks.json' });
      assert.equal(jwks.headers['cache-control'], 'public, max-age=300');
      const keys = jwks.json().keys as Array<Record<string, unknown>>;
      assert.ok(keys.some((key) => key.use === 'sig' && key.alg === 'ES256' && key.kid));
      assert.ok(keys.some((key) => key.use === 'enc' && key.alg === 'RSA-OAEP-256' && key.kid));
      for (const key of keys) for (const secret of ['d', 'p', 'q', 'dp', 'dq', 'qi']) assert.ok(!(secret in key), `no private ${secret}`);
    } finally {
      await t.close();
    }
  });
});
