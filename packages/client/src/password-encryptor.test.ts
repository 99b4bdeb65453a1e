import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { decodeProtectedHeader, exportJWK, generateKeyPair } from 'jose';
import { testBackends } from '../../../test/support/test-databases.js';
import { startTestGateway, type TestGateway } from '../../../test/support/test-gateway.js';
import { gatewayError, startFaultProxy, type Fault, type FaultProxy } from '../test/fault-proxy.js';
import { testClient } from '../test/test-client.js';

const JWKS = '/.well-known/jwks.json';
const BANKS = '/partner/provider/sbp/banks/';

describe('the encrypted-password scheme against a real gateway', () => {
  let t: TestGateway;
  let gatewayUrl: string;
  let partner: { login: string; password: string };
  let realKid: string;
  let staleJwks: Fault;
  const proxies: FaultProxy[] = [];
  before(async () => {
    t = await startTestGateway(testBackends()[0]!);
    gatewayUrl = await t.app.listen({ host: '127.0.0.1', port: 0 });
    partner = await t.addPartner();
    const jwks = (await (await fetch(`${gatewayUrl}${JWKS}`)).json()) as { keys: Array<{ use: string; kid: string }> };
    realKid = jwks.keys.find((key) => key.use === 'enc')!.kid;
    // What a client cached before the gateway rotated its encryption key: a key the gateway no longer holds.
    const { publicKey } = await generateKeyPair('RSA-OAEP-256', { extractable: true });
    staleJwks = { status: 200, body: JSON.stringify({ keys: [{ ...(await exportJWK(publicKey)), kid: 'retired-key', use: 'enc', alg: 'RSA-OAEP-256' }] }) };
  });
  after(async () => {
    await Promise.all(proxies.map((proxy) => proxy.close()));
    await t.close();
  });

  async function proxy(faultFor: Parameters<typeof startFaultProxy>[1]): Promise<FaultProxy> {
    const started = await startFaultProxy(gatewayUrl, faultFor);
    proxies.push(started);
    return started;
  }
  const sent = (proxy: FaultProxy, path: string) => proxy.requests.filter((request) => request.path === path);

  it('fetches the key set again after a refusal and retries once when the key changed (a rotation)', async () => {
    const rotated = await proxy((request) => (request.path === JWKS && request.index === 0 ? staleJwks : undefined));
    const { client } = testClient(rotated.url, partner);
    assert.ok((await client.banksWithPassword()).length > 0);
    assert.equal(sent(rotated, JWKS).length, 2);
    assert.deepEqual(sent(rotated, BANKS).map(kidOfCall), ['retired-key', realKid]);
    assert.ok((await client.banksWithPassword()).length > 0, 'and keeps the new key');
    assert.equal(sent(rotated, JWKS).length, 2);
  });

  it('does not repeat a refused call when the key set did not change (a wrong password)', async () => {
    const plain = await proxy(() => undefined);
    const { client } = testClient(plain.url, { login: partner.login, password: 'a wrong password here' });
    await assert.rejects(client.banksWithPassword(), { kind: 'unauthorized', status: 401 });
    assert.equal(sent(plain, JWKS).length, 2, 'the key set was checked once more');
    assert.equal(sent(plain, BANKS).length, 1);
  });

  it('builds a new JWE for every retry, so that a retried request is never a replay', async () => {
    const flaky = await proxy((request) => (request.path === BANKS && request.index < 3 ? gatewayError(503, 'Service temporarily unavailable; repeat the operation later') : undefined));
    const { client } = testClient(flaky.url, partner);
    assert.ok((await client.banksWithPassword()).length > 0);
    const jwes = sent(flaky, BANKS).map((request) => request.query.get('partnerPassword'));
    assert.equal(jwes.length, 3);
    assert.equal(new Set(jwes.map((jwe) => decodeProtectedHeader(jwe!).jti)).size, 3, 'each with its own jti');
  });

  it('retries a key set that could not be fetched, then encrypts', async () => {
    const flaky = await proxy((request) => (request.path === JWKS && request.index === 0 ? gatewayError(500, 'Service temporarily unavailable; repeat the operation later') : undefined));
    const { client, delays } = testClient(flaky.url, partner);
    assert.ok((await client.banksWithPassword()).length > 0);
    assert.equal(sent(flaky, JWKS).length, 2);
    assert.deepEqual(delays, [100]);
  });

  it('says so when the key set offers no RSA-OAEP-256 encryption key', async () => {
    const signingOnly = await proxy((request) => (request.path === JWKS ? { status: 200, body: JSON.stringify({ keys: [{ kty: 'EC', use: 'sig', kid: 'x' }] }) } : undefined));
    await assert.rejects(testClient(signingOnly.url, partner).client.banksWithPassword(), {
      kind: 'unavailable',
      operation: 'jwks',
      description: 'The key set has no RSA-OAEP-256 encryption key',
    });
    assert.equal(sent(signingOnly, BANKS).length, 0);
  });
});

describe('the encrypted-password scheme across a real key rotation', () => {
  it('recovers when the gateway rotates its encryption key with no grace period: refused, key set refetched, retried', async () => {
    const t = await startTestGateway(testBackends()[0]!, { env: { ENC_KEY_GRACE: '0' } });
    try {
      const url = await t.app.listen({ host: '127.0.0.1', port: 0 });
      const partner = await t.addPartner();
      const { client, calls } = testClient(url, partner);
      await client.banksWithPassword();
      const rotated = await t.gateway.admin.keys.rotate('enc');
      assert.ok((await client.banksWithPassword()).length > 0);
      const banksCalls = calls.filter((call) => call.path === BANKS);
      assert.equal(banksCalls.length, 3, 'one call, one refusal, one retry');
      assert.equal(kidOfCall(banksCalls[2]!), rotated.kid);
      assert.notEqual(kidOfCall(banksCalls[1]!), rotated.kid);
      assert.equal(calls.filter((call) => call.path === JWKS).length, 2);
    } finally {
      await t.close();
    }
  });
});

function kidOfCall(call: { query: URLSearchParams }): unknown {
  return decodeProtectedHeader(call.query.get('partnerPassword')!).kid;
}

