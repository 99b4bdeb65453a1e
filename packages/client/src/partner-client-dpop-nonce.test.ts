import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { jwtVerify, EmbeddedJWK } from 'jose';
import { freePort } from '../../../test/support/free-port.js';
import { addKeyPartner } from '../../../test/support/key-partner.js';
import { testBackends } from '../../../test/support/test-databases.js';
import { startTestGateway, type TestGateway } from '../../../test/support/test-gateway.js';
import { startFaultProxy, type Fault, type FaultProxy } from '../test/fault-proxy.js';
import { testClient, type SeenCall } from '../test/test-client.js';

const TOKEN = '/api/v1/oauth/token';
const BANKS = '/partner/provider/sbp/banks/';

/**
 * The gateway sends no DPoP-Nonce today; a server that does (RFC 9449 section 8) is played by a real proxy in
 * front of the real gateway, whose PUBLIC_URL is the proxy's address, answering the first request of a path
 * with the nonce challenge.
 */
describe('PartnerClient and a DPoP-Nonce, through a proxy that asks for one', () => {
  let t: TestGateway;
  let proxy: FaultProxy;
  let challenge: { path: string; fault: Fault; times: number } | undefined;
  before(async () => {
    const port = await freePort();
    proxy = await startFaultProxy(`http://127.0.0.1:${port}`, (request) => {
      if (!challenge || request.path !== challenge.path || challenge.times === 0) return undefined;
      challenge.times--;
      return challenge.fault;
    });
    t = await startTestGateway(testBackends()[0]!, { env: { PUBLIC_URL: proxy.url } });
    await t.app.listen({ host: '127.0.0.1', port });
  });
  after(async () => {
    await proxy.close();
    await t.close();
  });

  const nonceOf = async (call: SeenCall) => (await jwtVerify(call.headers.dpop!, EmbeddedJWK)).payload.nonce;

  it('repeats a banks call refused with use_dpop_nonce once, with the nonce in the new proof, and keeps using it', async () => {
    const partner = await addKeyPartner(t);
    const { client, calls } = testClient(proxy.url, { login: partner.login }, { auth: { privateKeyJwt: { privateKey: partner.key.privateJwk, kid: partner.key.kid } }, dpop: true });
    await client.login();
    challenge = { path: BANKS, times: 1, fault: { status: 401, headers: { 'dpop-nonce': 'nonce-1', 'www-authenticate': 'DPoP error="use_dpop_nonce"' }, body: '{"description_status":"nonce"}' } };
    assert.ok((await client.banks()).length > 0);
    await client.banks();
    const banks = calls.filter((call) => call.path === BANKS);
    assert.equal(banks.length, 3);
    assert.deepEqual(await Promise.all(banks.map(nonceOf)), [undefined, 'nonce-1', 'nonce-1']);
    assert.equal(calls.filter((call) => call.path === TOKEN).length, 1, 'the token was not given up');
  });

  it('repeats a token request refused with use_dpop_nonce (400) once, with a new assertion and the nonce', async () => {
    const partner = await addKeyPartner(t);
    const { client, calls } = testClient(proxy.url, { login: partner.login }, { auth: { privateKeyJwt: { privateKey: partner.key.privateJwk, kid: partner.key.kid } }, dpop: true });
    challenge = { path: TOKEN, times: 1, fault: { status: 400, headers: { 'dpop-nonce': 'nonce-2' }, body: '{"error":"use_dpop_nonce","error_description":"nonce","description_status":"nonce"}' } };
    assert.equal((await client.login()).tokenType, 'DPoP');
    const tokens = calls.filter((call) => call.path === TOKEN);
    assert.deepEqual(await Promise.all(tokens.map(nonceOf)), [undefined, 'nonce-2']);
    assert.notEqual(new URLSearchParams(tokens[0]!.body).get('client_assertion'), new URLSearchParams(tokens[1]!.body).get('client_assertion'));
  });

  it('does not repeat a refusal that brings no new nonce', async () => {
    const partner = await addKeyPartner(t);
    const { client, calls } = testClient(proxy.url, { login: partner.login }, { auth: { privateKeyJwt: { privateKey: partner.key.privateJwk, kid: partner.key.kid } }, dpop: true, retries: 0 });
    challenge = { path: TOKEN, times: 2, fault: { status: 400, body: '{"error":"invalid_dpop_proof","error_description":"x","description_status":"x"}' } };
    await assert.rejects(client.login(), (error: { status: number }) => error.status === 400);
    assert.equal(calls.filter((call) => call.path === TOKEN).length, 1);
    challenge = undefined;
  });
});
