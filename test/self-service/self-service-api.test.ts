import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SELF_CALLS_PATH, SELF_KEYS_PATH, SELF_USAGE_PATH } from '@partner-gateway/contract/paths';
import type { RotateKeyResponse, SelfCallsResponse, SelfKeysResponse, SelfUsageResponse } from '@partner-gateway/contract/self-service';
import { FORM_HEADERS, dpopProof, form, registerKeys, testKey, type TestKey } from '../support/oauth-client.js';
import { selfServiceCaller } from '../support/self-service-caller.js';
import { startListeningGateway } from '../support/key-partner.js';
import { testBackends } from '../support/test-databases.js';
import { TEST_ADMIN_TOKEN, type TestGateway } from '../support/test-gateway.js';

// Issue 37's self-service API over HTTP on every backend: scope `self` only for a client that proved a key, key
// rotation with an overlap window that ends on time (a controlled clock), two rotations at once, and a request
// log and usage that hold the calling partner's own calls and nobody else's.

const HOUR = 3600_000;

for (const backend of testBackends()) {
  describe(`the self-service API on ${backend.name}`, () => {
    let t: TestGateway & { url: string };
    let clock = Date.now();
    let a: { login: string; password: string };
    let b: { login: string; password: string };
    let aKey: TestKey;
    let bKey: TestKey;
    before(async () => {
      t = await startListeningGateway(backend, { now: () => clock });
      a = await t.addPartner();
      b = await t.addPartner();
      aKey = await testKey();
      bKey = await testKey('EdDSA');
      await registerKeys(t.gateway, a.login, [aKey]);
      await registerKeys(t.gateway, b.login, [bKey]);
    });
    after(() => t.close());

    let caller: ReturnType<typeof selfServiceCaller>;
    before(() => {
      caller = selfServiceCaller(t.url, () => clock);
    });
    const tokenRequest: ReturnType<typeof selfServiceCaller>['tokenRequest'] = (...args) => caller.tokenRequest(...args);
    const selfToken = (login: string, key: TestKey) => caller.token(login, key);
    const boundSelfToken = (login: string, key: TestKey, dpopKey: TestKey) => caller.boundToken(login, key, dpopKey);
    /** POST /api/v1/self/keys with a bound token and its proof. */
    const rotate = async (token: string, dpopKey: TestKey, body: unknown) =>
      fetch(`${t.url}${SELF_KEYS_PATH}`, {
        method: 'POST',
        headers: {
          authorization: `DPoP ${token}`,
          dpop: await dpopProof(dpopKey, 'POST', `${t.url}${SELF_KEYS_PATH}`, { accessToken: token, now: clock }),
          'content-type': 'application/json',
        },
        body: JSON.stringify(body),
      });
    /** partner_gateway_partner_credentials_ending{credential="key"}, as /metrics reports it. */
    const endingKeys = async () => {
      const text = (await t.admin.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } })).body;
      return Number(/^partner_gateway_partner_credentials_ending\{credential="key"\} (\d+)$/m.exec(text)?.[1] ?? Number.NaN);
    };
    const self = (token: string, path: string, init: RequestInit = {}) =>
      fetch(`${t.url}${path}`, { ...init, headers: { authorization: `Bearer ${token}`, ...(init.body ? { 'content-type': 'application/json' } : {}), ...init.headers } });
    const calls = async (token: string, query: string) => {
      const response = await self(token, `${SELF_CALLS_PATH}?${query}`);
      assert.equal(response.status, 200, await response.clone().text());
      return (await response.json()) as SelfCallsResponse;
    };

    it('when a key client asks for scope self, then it gets it; a password client asking is refused invalid_scope, and tokens without the scope get 403 insufficient_scope', async () => {
      const token = await selfToken(a.login, aKey);
      assert.equal((await self(token, SELF_KEYS_PATH)).status, 200);

      const secret = await fetch(`${t.url}/api/v1/oauth/token`, {
        method: 'POST',
        headers: FORM_HEADERS,
        body: form({ grant_type: 'client_credentials', client_id: a.login, client_secret: a.password, scope: 'self' }),
      });
      assert.equal(secret.status, 400);
      assert.equal(((await secret.json()) as { error: string }).error, 'invalid_scope');

      const plain = (await (await tokenRequest(a.login, aKey)).json()) as { access_token: string; scope?: string };
      assert.equal(plain.scope, undefined);
      const login = (await (await fetch(`${t.url}/api/v1/login/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(a) })).json()) as { access_token: string };
      for (const other of [plain.access_token, login.access_token]) {
        for (const [method, path] of [['GET', SELF_KEYS_PATH], ['POST', SELF_KEYS_PATH], ['GET', SELF_CALLS_PATH], ['GET', SELF_USAGE_PATH]] as const) {
          const response = await self(other, path, method === 'POST' ? { method, body: JSON.stringify({ key: (await testKey()).publicJwk }) } : { method });
          assert.equal(response.status, 403, `${method} ${path}`);
          assert.match(String(response.headers.get('www-authenticate')), /insufficient_scope/);
        }
      }
      assert.equal((await self('not-a-token', SELF_KEYS_PATH)).status, 401);
      // A bearer token of scope self reads, but changes no credential: whoever finds it must not register a key of their own.
      const unbound = await self(token, SELF_KEYS_PATH, { method: 'POST', body: JSON.stringify({ key: (await testKey()).publicJwk }) });
      assert.equal(unbound.status, 403);
      assert.match(((await unbound.json()) as { description_status: string }).description_status, /bound to your DPoP key/);
      // Nothing was rotated by the refused calls.
      assert.deepEqual(((await (await self(token, SELF_KEYS_PATH)).json()) as SelfKeysResponse).keys.map((key) => key.kid), [aKey.kid]);
    });

    it('when a partner rotates its key with a one-hour overlap, then the old key takes tokens until the hour ends, the new one at once, and the old one is refused after', async () => {
      const partner = await t.addPartner();
      const old = await testKey();
      await registerKeys(t.gateway, partner.login, [old]);
      const before = await selfToken(partner.login, old);
      const endingBefore = await endingKeys();
      const dpopKey = await testKey();
      const next = await testKey('PS256');
      const rotated = await rotate(await boundSelfToken(partner.login, old, dpopKey), dpopKey, { key: next.publicJwk, overlapSeconds: 3600 });
      assert.equal(rotated.status, 200, await rotated.clone().text());
      const answer = (await rotated.json()) as RotateKeyResponse;
      assert.equal(answer.added, next.kid);
      const retiring = answer.keys.find((key) => key.kid === old.kid)!;
      assert.equal(Date.parse(retiring.expiresAt!), clock + HOUR);
      assert.equal(answer.keys.find((key) => key.kid === next.kid)!.expiresAt, undefined);
      assert.equal(await endingKeys(), endingBefore + 1, 'the old key counted in partner_gateway_partner_credentials_ending');

      // The token taken before the rotation still works: no session ended.
      assert.equal((await self(before, SELF_KEYS_PATH)).status, 200);
      const start = clock;
      for (const offset of [0, 10 * 60_000, 30 * 60_000, HOUR - 1000]) {
        clock = start + offset;
        assert.equal((await tokenRequest(partner.login, old)).status, 200, `old key at +${offset / 1000} s`);
        assert.equal((await tokenRequest(partner.login, next)).status, 200, `new key at +${offset / 1000} s`);
      }
      clock = start + HOUR + 1000;
      assert.equal((await tokenRequest(partner.login, old)).status, 401, 'the old key after the window');
      assert.equal((await tokenRequest(partner.login, next)).status, 200);
      const now = await selfToken(partner.login, next);
      assert.deepEqual(((await (await self(now, SELF_KEYS_PATH)).json()) as SelfKeysResponse).keys.map((key) => key.kid), [next.kid]);

      // The operator sees the rotation in the trail, under the partner, and the key's end in the admin view.
      await t.gateway.admin.audit.flush();
      const entries = await t.gateway.admin.audit.query({ partner: partner.login, action: 'self.keys.rotate', limit: 5 });
      assert.equal(entries.length, 1);
      assert.equal(entries[0]!.details?.added, next.kid);
      const view = (await t.admin.inject({ method: 'GET', url: `/admin/v1/partners/${partner.login}`, headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } })).json() as { jwks: { keys: Array<{ kid: string; expiresAt?: string }> } };
      assert.equal(view.jwks.keys.find((key) => key.kid === old.kid)?.expiresAt, retiring.expiresAt);
      clock = Date.now();
    });

    it('when a partner rotates a leaked key with no overlap and asks to end its sessions, then every token issued before is refused at once, the old key takes none, and the new key works', async () => {
      const partner = await t.addPartner();
      const old = await testKey();
      await registerKeys(t.gateway, partner.login, [old]);
      const before = await selfToken(partner.login, old);
      const dpopKey = await testKey();
      const next = await testKey();
      const rotated = await rotate(await boundSelfToken(partner.login, old, dpopKey), dpopKey, { key: next.publicJwk, overlapSeconds: 0, endSessions: true });
      assert.equal(rotated.status, 200, await rotated.clone().text());
      assert.equal((await self(before, SELF_KEYS_PATH)).status, 401, 'a token from before the rotation');
      assert.equal((await tokenRequest(partner.login, old)).status, 401, 'the old key');
      assert.equal((await self(await selfToken(partner.login, next), SELF_KEYS_PATH)).status, 200);
      await t.gateway.admin.audit.flush();
      const [entry] = await t.gateway.admin.audit.query({ partner: partner.login, action: 'self.keys.rotate', limit: 1 });
      assert.equal(entry?.details?.sessionsEnded, true);
    });

    it('when two rotations of one partner arrive at once, then no key is lost: every key an answer added is registered, and a refused one changed nothing', async () => {
      const partner = await t.addPartner();
      const old = await testKey();
      await registerKeys(t.gateway, partner.login, [old]);
      const token = await selfToken(partner.login, old);
      const dpopKey = await testKey();
      const bound = await boundSelfToken(partner.login, old, dpopKey);
      const keys = await Promise.all([testKey(), testKey(), testKey(), testKey()]);
      const answers = await Promise.all(keys.map((key) => rotate(bound, dpopKey, { key: key.publicJwk, overlapSeconds: 600 })));
      const added = keys.filter((_, index) => answers[index]!.status === 200).map((key) => key.kid);
      assert.ok(added.length >= 1);
      for (const answer of answers) assert.ok(answer.status === 200 || answer.status === 409, String(answer.status));
      const registered = ((await (await self(token, SELF_KEYS_PATH)).json()) as SelfKeysResponse).keys.map((key) => key.kid);
      for (const kid of added) assert.ok(registered.includes(kid), `${kid} was added and must be registered`);
      for (const key of keys) if (!added.includes(key.kid)) assert.ok(!registered.includes(key.kid));
      assert.ok(registered.includes(old.kid));
    });

    it('when a refused call is looked up by its request id, then its owner finds it with the reason in words, and another partner gets what an unknown id gets', async () => {
      const refused = await fetch(`${t.url}/api/v1/login/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ login: a.login, password: 'not the password' }) });
      assert.equal(refused.status, 401);
      const requestId = refused.headers.get('x-request-id')!;
      const aToken = await selfToken(a.login, aKey);
      const found = await calls(aToken, `requestId=${encodeURIComponent(requestId)}`);
      assert.equal(found.calls.length, 1);
      assert.equal(found.calls[0]!.operation, 'login');
      assert.equal(found.calls[0]!.reason, 'wrong_password');
      assert.match(found.calls[0]!.explanation!, /password is wrong/);
      assert.equal(found.calls[0]!.requestId, requestId);

      const bToken = await selfToken(b.login, bKey);
      const unknown = await self(bToken, `${SELF_CALLS_PATH}?requestId=no-such-request`);
      const foreign = await self(bToken, `${SELF_CALLS_PATH}?requestId=${encodeURIComponent(requestId)}`);
      assert.equal(foreign.status, unknown.status);
      assert.deepEqual(await foreign.json(), await unknown.json());
      assert.deepEqual(((await calls(bToken, `requestId=${encodeURIComponent(requestId)}`)).calls), []);
    });

    it("when a partner reads its log, then it holds its own calls only: no other partner's, no operator's change concerning it, whatever the cursor", async () => {
      await t.gateway.admin.partners.update(a.login, { rewardTypes: ['sbp'] });
      const bToken = await selfToken(b.login, bKey);
      const aToken = await selfToken(a.login, aKey);
      await t.gateway.admin.audit.flush();
      const aEntries = await calls(aToken, 'limit=200');
      assert.ok(aEntries.calls.length > 0);
      const bEntries = await calls(bToken, 'limit=200');
      const aIds = new Set(aEntries.calls.map((call) => call.requestId));
      for (const call of bEntries.calls) assert.ok(!aIds.has(call.requestId), 'a call of A in B\'s log');
      for (const call of aEntries.calls) assert.ok(!String(call.operation).startsWith('partner.'), 'an operator\'s change in the partner\'s log');
      // A cursor is only a position: from A's newest entry's id, B still reads B's calls.
      const all = await t.gateway.admin.audit.query({ partner: a.login, limit: 1 });
      const paged = await calls(bToken, `before=${all[0]!.id}&limit=200`);
      for (const call of paged.calls) assert.ok(!aIds.has(call.requestId));
      const tokens = (await t.gateway.admin.audit.query({ partner: b.login, action: 'token', limit: 200 })).length;
      assert.ok(tokens > 0);
    });

    it('when a partner reads its usage, then each day, operation and outcome counts its calls', async () => {
      const partner = await t.addPartner();
      const key = await testKey();
      await registerKeys(t.gateway, partner.login, [key]);
      for (let i = 0; i < 3; i++) assert.equal((await tokenRequest(partner.login, key)).status, 200);
      for (let i = 0; i < 2; i++) {
        const wrong = await fetch(`${t.url}/api/v1/login/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ login: partner.login, password: 'wrong' }) });
        assert.equal(wrong.status, 401);
      }
      const token = await selfToken(partner.login, key);
      await t.gateway.admin.audit.flush();
      const response = await self(token, SELF_USAGE_PATH);
      assert.equal(response.status, 200);
      const { usage, days } = (await response.json()) as SelfUsageResponse;
      assert.equal(days, 30);
      const sum = (operation: string, outcome: string) => usage.filter((row) => row.operation === operation && row.outcome === outcome).reduce((total, row) => total + row.calls, 0);
      assert.equal(sum('token', 'success'), 4);
      assert.equal(sum('login', 'failure'), 2);
      assert.equal(sum('login', 'success'), 0);
      assert.ok(usage.every((row) => /^\d{4}-\d{2}-\d{2}$/.test(row.day)));
    });

    it('when a rotation is malformed or names a key already registered, then the answer says so and nothing changes', async () => {
      const token = await selfToken(a.login, aKey);
      const dpopKey = await testKey();
      const bound = await boundSelfToken(a.login, aKey, dpopKey);
      const post = (body: unknown) => rotate(bound, dpopKey, body);
      const { exportJWK, generateKeyPair } = await import('jose');
      const privateKey = await generateKeyPair('ES256', { extractable: true });
      const cases: Array<[unknown, number]> = [
        [{ key: aKey.publicJwk }, 409],
        [{ key: await exportJWK(privateKey.privateKey) }, 422],
        [{ key: (await testKey()).publicJwk, overlapSeconds: -1 }, 422],
        [{ key: { kty: 'oct', k: 'c2VjcmV0' } }, 422],
        [{ key: (await testKey()).publicJwk, overlapSeconds: 31 * 24 * 3600 }, 422],
        [{ key: (await testKey()).publicJwk, partner: b.login }, 422],
        [{}, 422],
      ];
      for (const [body, status] of cases) {
        const response = await post(body);
        assert.equal(response.status, status, JSON.stringify(body).slice(0, 80));
        assert.ok(typeof ((await response.json()) as { description_status?: string }).description_status === 'string');
      }
      assert.deepEqual(((await (await self(token, SELF_KEYS_PATH)).json()) as SelfKeysResponse).keys.map((key) => key.kid), [aKey.kid]);
    });
  });
}
