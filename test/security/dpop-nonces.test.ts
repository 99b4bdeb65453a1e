import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { texts } from '../../src/errors.js';
import { freePort } from '../support/free-port.js';
import { startListeningGateway } from '../support/key-partner.js';
import { CLIENT_ASSERTION_TYPE, FORM_HEADERS, clientAssertion, dpopProof, form, registerKeys, testKey, type TestKey } from '../support/oauth-client.js';
import { testBackends } from '../support/test-databases.js';
import { startSiblingGateway, type TestGateway } from '../support/test-gateway.js';

// Issue 26, finding 6: DPoP nonces (RFC 9449 section 8). With DPOP_NONCE=required every proof must carry a nonce
// the gateway handed out in DPoP-Nonce: without one, the token endpoint answers 400 use_dpop_nonce, the seed's
// operations and banks the seed's 401 with the use_dpop_nonce challenge, each with a fresh DPoP-Nonce, and nothing
// of the request is spent. Nonces rotate every DPOP_NONCE_ROTATION seconds and every instance accepts any
// instance's. Off by default.

const TOKEN_PATH = '/api/v1/oauth/token';
const BANKS_PATH = '/partner/provider/sbp/banks/';
const LOGIN_PATH = '/api/v1/login/';
const REFRESH_PATH = '/api/v1/token/refresh/';
const ROTATION = 5;
const NONCE = /^[A-Za-z0-9_-]{32}$/;

for (const backend of testBackends()) {
  describe(`DPoP nonces (DPOP_NONCE=required), on ${backend.name}`, () => {
    let t: TestGateway & { url: string };
    let partner: { login: string; password: string; id: string };
    let key: TestKey;
    /** The gateway's clock runs `offset` ms ahead of the test's: a test moves it instead of waiting. */
    let offset = 0;
    const now = () => Date.now() + offset;
    /** Moves the gateway's clock to just after the start of a nonce slot, so that a test's few requests stay within it. */
    const toSlotStart = () => {
      offset += ROTATION * 1000 - (now() % (ROTATION * 1000)) + 20;
    };
    before(async () => {
      // Two failures lock an address's garbage counter: a nonce request must never count as one.
      t = await startListeningGateway(backend, { now, env: { DPOP_NONCE: 'required', DPOP_NONCE_ROTATION: String(ROTATION), THROTTLE_MAX_FAILURES: '2' } });
      partner = await t.addPartner();
      key = await testKey();
      await registerKeys(t.gateway, partner.login, [key]);
    });
    after(() => t.close());

    const tokenRequest = (base: string, proof: string, assertion: string) =>
      fetch(base + TOKEN_PATH, { method: 'POST', headers: { ...FORM_HEADERS, dpop: proof }, body: form({ grant_type: 'client_credentials', client_assertion_type: CLIENT_ASSERTION_TYPE, client_assertion: assertion }) });
    const proofFor = (dpopKey: TestKey, path: string, nonce?: string, accessToken?: string) =>
      dpopProof(dpopKey, 'POST', t.url + path, { now: now(), ...(accessToken ? { accessToken } : {}), ...(nonce ? { claims: { nonce } } : {}) });
    const latestReason = async (action: string) => {
      await t.gateway.admin.audit.flush();
      const entries = await t.gateway.admin.audit.query({ action } as never);
      return entries.sort((a, b) => +new Date(b.at) - +new Date(a.at))[0]?.reason;
    };
    /** A DPoP-bound token, its key, and the nonce its answer carried. */
    const boundToken = async () => {
      const dpopKey = await testKey();
      const assertion = await clientAssertion(key, partner.login, t.url, { now: now() });
      const challenge = await tokenRequest(t.url, await proofFor(dpopKey, TOKEN_PATH), assertion);
      const nonce = challenge.headers.get('dpop-nonce')!;
      const issued = await tokenRequest(t.url, await proofFor(dpopKey, TOKEN_PATH, nonce), assertion);
      assert.equal(issued.status, 200, await issued.clone().text());
      return { dpopKey, token: ((await issued.json()) as { access_token: string }).access_token, nonce: issued.headers.get('dpop-nonce')! };
    };

    it('when a token request\'s proof has no nonce, then 400 use_dpop_nonce with a DPoP-Nonce, and the same assertion then succeeds with it', async () => {
      const dpopKey = await testKey();
      const assertion = await clientAssertion(key, partner.login, t.url, { now: now() });
      const refused = await tokenRequest(t.url, await proofFor(dpopKey, TOKEN_PATH), assertion);
      assert.equal(refused.status, 400);
      const body = (await refused.json()) as { error: string; error_description: string; description_status: string };
      assert.equal(body.error, 'use_dpop_nonce');
      assert.match(body.error_description, /must carry a nonce: use the one in this answer's DPoP-Nonce header/);
      assert.equal(body.description_status, texts.unauthorized);
      const nonce = refused.headers.get('dpop-nonce');
      assert.match(nonce ?? '', NONCE);
      assert.equal(await latestReason('token'), 'dpop_nonce_missing');

      // Nothing was spent by the refusal: the very same client assertion is still good.
      const issued = await tokenRequest(t.url, await proofFor(dpopKey, TOKEN_PATH, nonce!), assertion);
      assert.equal(issued.status, 200, await issued.clone().text());
      assert.equal(((await issued.json()) as { token_type: string }).token_type, 'DPoP');
      assert.match(issued.headers.get('dpop-nonce') ?? '', NONCE);
    });

    it('when a banks call\'s proof has no nonce, then the seed\'s 401 body with the use_dpop_nonce challenge and a DPoP-Nonce, and with it 200', async () => {
      const { dpopKey, token } = await boundToken();
      const banks = async (nonce?: string) =>
        fetch(t.url + BANKS_PATH, { method: 'POST', headers: { authorization: `DPoP ${token}`, dpop: await proofFor(dpopKey, BANKS_PATH, nonce, token) } });
      // Three in a row from one address, two failures locking its garbage counter: none is throttled (429).
      for (let attempt = 0; attempt < 3; attempt++) {
        const refused = await banks();
        assert.equal(refused.status, 401);
        assert.equal(await refused.text(), JSON.stringify({ description_status: texts.unauthorized }));
        assert.match(refused.headers.get('www-authenticate') ?? '', /^DPoP error="use_dpop_nonce", error_description="The DPoP proof must carry a nonce/);
        assert.match(refused.headers.get('dpop-nonce') ?? '', NONCE);
      }
      assert.equal(await latestReason('banks'), 'dpop_nonce_missing');
      const nonce = (await banks()).headers.get('dpop-nonce')!;
      const served = await banks(nonce);
      assert.equal(served.status, 200, await served.clone().text());
      assert.match(served.headers.get('dpop-nonce') ?? '', NONCE);
    });

    it('when two rotations have passed, then the old nonce is refused as dpop_nonce_invalid and the new one is handed out', async () => {
      toSlotStart();
      const { dpopKey, token, nonce } = await boundToken();
      offset += ROTATION * 1000;
      const stillGood = await fetch(t.url + BANKS_PATH, { method: 'POST', headers: { authorization: `DPoP ${token}`, dpop: await proofFor(dpopKey, BANKS_PATH, nonce, token) } });
      assert.equal(stillGood.status, 200, 'the previous slot\'s nonce is still accepted');
      offset += ROTATION * 1000;
      const stale = await fetch(t.url + BANKS_PATH, { method: 'POST', headers: { authorization: `DPoP ${token}`, dpop: await proofFor(dpopKey, BANKS_PATH, nonce, token) } });
      assert.equal(stale.status, 401);
      assert.match(stale.headers.get('www-authenticate') ?? '', /^DPoP error="use_dpop_nonce", error_description="The DPoP proof's nonce is not current/);
      const fresh = stale.headers.get('dpop-nonce')!;
      assert.notEqual(fresh, nonce);
      assert.equal(await latestReason('banks'), 'dpop_nonce_invalid');
      const served = await fetch(t.url + BANKS_PATH, { method: 'POST', headers: { authorization: `DPoP ${token}`, dpop: await proofFor(dpopKey, BANKS_PATH, fresh, token) } });
      assert.equal(served.status, 200);
    });

    it('when a login or a refresh comes with a proof without a nonce, then the seed\'s 401 asks for one, and the refresh token is not spent by it', async () => {
      const dpopKey = await testKey();
      const post = async (path: string, body: unknown, nonce?: string) =>
        fetch(t.url + path, { method: 'POST', headers: { 'content-type': 'application/json', dpop: await proofFor(dpopKey, path, nonce) }, body: JSON.stringify(body) });
      const refusedLogin = await post(LOGIN_PATH, partner);
      assert.equal(refusedLogin.status, 401);
      assert.equal(await refusedLogin.text(), JSON.stringify({ description_status: texts.unauthorized }));
      assert.match(refusedLogin.headers.get('www-authenticate') ?? '', /^DPoP error="use_dpop_nonce"/);
      const login = await post(LOGIN_PATH, partner, refusedLogin.headers.get('dpop-nonce')!);
      assert.equal(login.status, 200, await login.clone().text());
      const session = (await login.json()) as { refresh_token: string; token_type: string };
      assert.equal(session.token_type, 'DPoP');

      const refusedRefresh = await post(REFRESH_PATH, { refresh_token: session.refresh_token });
      assert.equal(refusedRefresh.status, 401);
      assert.match(refusedRefresh.headers.get('www-authenticate') ?? '', /^DPoP error="use_dpop_nonce"/);
      const refreshed = await post(REFRESH_PATH, { refresh_token: session.refresh_token }, refusedRefresh.headers.get('dpop-nonce')!);
      assert.equal(refreshed.status, 200, 'the refresh token survived the nonce refusal (a reuse would have revoked its family)');
    });

    it('when a second instance shares the database and MASTER_KEY, then it hands out the same nonce and accepts the first one\'s', async () => {
      const sibling = await startSiblingGateway(t, { now, env: { PUBLIC_URL: t.url, DPOP_NONCE: 'required', DPOP_NONCE_ROTATION: String(ROTATION) } });
      const port = await freePort();
      await sibling.app.listen({ host: '127.0.0.1', port });
      try {
        toSlotStart();
        const { dpopKey, token, nonce } = await boundToken();
        const viaSibling = await fetch(`http://127.0.0.1:${port}${BANKS_PATH}`, { method: 'POST', headers: { authorization: `DPoP ${token}`, dpop: await proofFor(dpopKey, BANKS_PATH, nonce, token) } });
        assert.equal(viaSibling.status, 200, await viaSibling.clone().text());
        assert.equal(viaSibling.headers.get('dpop-nonce'), (await fetch(t.url + BANKS_PATH, { method: 'POST', headers: { authorization: `DPoP ${token}`, dpop: await proofFor(dpopKey, BANKS_PATH, nonce, token) } })).headers.get('dpop-nonce'));
      } finally {
        await sibling.close();
      }
    });
  });

  describe(`DPoP nonces off (the default), on ${backend.name}`, () => {
    let t: TestGateway & { url: string };
    let partner: { login: string };
    let key: TestKey;
    before(async () => {
      t = await startListeningGateway(backend);
      partner = await t.addPartner();
      key = await testKey();
      await registerKeys(t.gateway, partner.login, [key]);
    });
    after(() => t.close());

    it('when DPOP_NONCE is unset, then a proof without a nonce is taken and no DPoP-Nonce is handed out', async () => {
      const response = await fetch(t.url + TOKEN_PATH, {
        method: 'POST',
        headers: { ...FORM_HEADERS, dpop: await dpopProof(await testKey(), 'POST', t.url + TOKEN_PATH) },
        body: form({ grant_type: 'client_credentials', client_assertion_type: CLIENT_ASSERTION_TYPE, client_assertion: await clientAssertion(key, partner.login, t.url) }),
      });
      assert.equal(response.status, 200);
      assert.equal(response.headers.get('dpop-nonce'), null);
    });
  });
}
