import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { jwtVerify, EmbeddedJWK } from 'jose';
import { freePort } from '../../../test/support/free-port.js';
import { addKeyPartner } from '../../../test/support/key-partner.js';
import { startListeningGateway } from '../../../test/support/key-partner.js';
import { testBackends } from '../../../test/support/test-databases.js';
import { startTestGateway, type TestGateway } from '../../../test/support/test-gateway.js';
import { startFaultProxy, type Fault, type FaultProxy } from '../test/fault-proxy.js';
import { testClient, type SeenCall } from '../test/test-client.js';

const TOKEN = '/api/v1/oauth/token';
const nonceOf = async (call: SeenCall) => (await jwtVerify(call.headers.dpop!, EmbeddedJWK)).payload.nonce;
const BANKS = '/partner/provider/sbp/banks/';

/**
 * A server that asks for a DPoP nonce (RFC 9449 section 8) in every way the specification allows is played by a
 * real proxy in front of the real gateway, whose PUBLIC_URL is the proxy's address, answering the first request of
 * a path with the nonce challenge. The gateway's own nonces (DPOP_NONCE=required) are the suite below.
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

  it('does not repeat a refusal for another fault, even one that brings a new nonce', async () => {
    const partner = await addKeyPartner(t);
    const { client, calls } = testClient(proxy.url, { login: partner.login }, { auth: { privateKeyJwt: { privateKey: partner.key.privateJwk, kid: partner.key.kid } }, dpop: true, retries: 0 });
    challenge = { path: TOKEN, times: 2, fault: { status: 400, headers: { 'dpop-nonce': 'nonce-3' }, body: '{"error":"invalid_dpop_proof","error_description":"x","description_status":"x"}' } };
    await assert.rejects(client.login(), (error: { status: number; oauthError?: string }) => error.status === 400 && error.oauthError === 'invalid_dpop_proof');
    assert.equal(calls.filter((call) => call.path === TOKEN).length, 1);
    challenge = undefined;
  });
});

for (const backend of testBackends()) {
  describe(`PartnerClient against the gateway with DPOP_NONCE=required, on ${backend.name}`, () => {
    /** Seconds a nonce slot lasts: the test moves the clock to a slot's start, and calls within it share its nonce. */
    const ROTATION = 10;
    let t: TestGateway & { url: string };
    /** The gateway's clock runs `offset` ms ahead: the nonces it handed out go stale without waiting. */
    let offset = 0;
    before(async () => {
      t = await startListeningGateway(backend, { now: () => Date.now() + offset, env: { DPOP_NONCE: 'required', DPOP_NONCE_ROTATION: String(ROTATION) } });
    });
    after(() => t.close());

    it('when the gateway asks for its nonce, then the client gets a DPoP token and lists banks, retrying once only when its nonce went stale', async () => {
      const partner = await addKeyPartner(t);
      const { client, calls } = testClient(t.url, { login: partner.login }, { auth: { privateKeyJwt: { privateKey: partner.key.privateJwk, kid: partner.key.kid } }, dpop: true });
      // The gateway's clock moved to the start of a nonce slot: the calls below share its nonce until the offset
      // moves on. (With a 5 s slot, a CI run once saw the slot end between the token and the first banks call.)
      offset += ROTATION * 1000 - ((Date.now() + offset) % (ROTATION * 1000));
      assert.equal((await client.login()).tokenType, 'DPoP');
      const tokens = calls.filter((call) => call.path === TOKEN);
      assert.equal(tokens.length, 2, 'refused once for want of the nonce, then issued');
      const [first, second] = await Promise.all(tokens.map(nonceOf));
      assert.equal(first, undefined);
      assert.match(String(second), /^[A-Za-z0-9_-]{32}$/);

      // The token's answer carried the current nonce: the banks call needs no second try.
      assert.ok((await client.banks()).length > 0);
      assert.equal(calls.filter((call) => call.path === BANKS).length, 1);

      offset += 2 * ROTATION * 1000;
      assert.ok((await client.banks()).length > 0);
      const banks = calls.filter((call) => call.path === BANKS);
      assert.equal(banks.length, 3, 'the stale nonce was refused once, then the call went through with the new one');
      const nonces = await Promise.all(banks.map(nonceOf));
      assert.equal(nonces[1], nonces[0]);
      assert.notEqual(nonces[2], nonces[1]);
      assert.equal(calls.filter((call) => call.path === TOKEN).length, 2, 'the token was not given up');
    });

    it('when a password partner logs in with DPoP, then the seed\'s login and refresh take the nonce too, its refresh token unspent by the refusal', async () => {
      const partner = await t.addPartner();
      const clock = () => Date.now() + offset;
      const { client, calls, logins, refreshes, sentRefreshTokens } = testClient(t.url, partner, { dpop: true, internals: { now: clock } });
      assert.equal((await client.login()).tokenType, 'DPoP');
      assert.equal(logins(), 2);
      assert.ok((await client.banks()).length > 0);
      // Past the access token's life (TOKEN_TTL, 900 s) and the nonce's: the next call refreshes with a stale nonce.
      offset += 1_000_000;
      assert.ok((await client.banks()).length > 0);
      assert.equal(refreshes(), 2, 'the refresh was refused for its stale nonce and repeated with the new one');
      assert.equal(sentRefreshTokens[0], sentRefreshTokens[1], 'the same refresh token, which the refusal had not spent');
      assert.equal(logins(), 2, 'no new login: the refresh went through');
      assert.equal(calls.filter((call) => call.path === BANKS).length, 2);
    });
  });
}
