import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SignJWT, exportJWK, generateKeyPair, type JWK } from 'jose';
import { AppError, texts } from '../../src/errors.js';
import { encryptPassword } from '../support/encrypt-password.js';
import { CLIENT_ASSERTION_TYPE, FORM_HEADERS, clientAssertion, dpopProof, form, registerKeys, testKey, type TestKey } from '../support/oauth-client.js';
import { testBackends } from '../support/test-databases.js';
import { startTestGateway, type TestGateway } from '../support/test-gateway.js';

// The attacks issue 13 lists, each tried over HTTP on every backend: a forged, replayed or misdirected client
// assertion, a stolen DPoP-bound token and every way of misusing a proof, a key-only partner's password on
// every path, and key registrations the gateway must refuse.

const BASE = 'http://127.0.0.1:8080';
const TOKEN_PATH = '/api/v1/oauth/token';
const TOKEN_URL = BASE + TOKEN_PATH;
const BANKS = '/partner/provider/sbp/banks/';
const BANKS_URL = BASE + BANKS;
const JWE_MAX_AGE = 120;

for (const backend of testBackends()) {
  describe(`OAuth attacks (issue 13) on ${backend.name}`, () => {
    let t: TestGateway;
    let partner: { login: string; password: string; id: string };
    let keyOnly: { login: string; password: string; id: string };
    let key: TestKey;
    let keyOnlyKey: TestKey;
    before(async () => {
      t = await startTestGateway(backend, { env: { TOKEN_TTL: '600' } });
      partner = await t.addPartner();
      keyOnly = await t.addPartner();
      key = await testKey();
      keyOnlyKey = await testKey('EdDSA');
      await registerKeys(t.gateway, partner.login, [key]);
      await registerKeys(t.gateway, keyOnly.login, [keyOnlyKey], { authMethods: ['private_key_jwt'] });
    });
    after(() => t.close());

    const post = (url: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
      t.app.inject({ method: 'POST', url, headers: { ...FORM_HEADERS, ...headers }, payload: form(fields) });
    const tokenWith = (assertion: string, headers: Record<string, string> = {}) =>
      post(TOKEN_PATH, { grant_type: 'client_credentials', client_assertion_type: CLIENT_ASSERTION_TYPE, client_assertion: assertion }, headers);
    const lastReason = async (login: string, action: string) => {
      await t.gateway.admin.audit.flush();
      const entries = await t.gateway.admin.audit.query({ partner: login, action } as never);
      return entries.sort((a, b) => +new Date(b.at) - +new Date(a.at))[0]?.reason;
    };
    const assertInvalidClient = (response: { statusCode: number; json(): unknown }) => {
      assert.equal(response.statusCode, 401);
      assert.deepEqual(response.json(), { error: 'invalid_client', error_description: 'Client authentication failed', description_status: texts.unauthorized });
    };
    const boundToken = async (dpopKey: TestKey, login = partner.login, signer = key) => {
      const response = await tokenWith(await clientAssertion(signer, login, BASE), { dpop: await dpopProof(dpopKey, 'POST', TOKEN_URL) });
      assert.equal(response.statusCode, 200, response.body);
      return response.json().access_token as string;
    };
    const banksWith = (token: string, proof: string | undefined, scheme = 'DPoP') =>
      t.app.inject({ method: 'POST', url: BANKS, headers: { authorization: `${scheme} ${token}`, ...(proof ? { dpop: proof } : {}) } });
    const assertDpopRefusal = (response: { statusCode: number; headers: Record<string, unknown>; json(): unknown }, error: 'invalid_token' | 'invalid_dpop_proof') => {
      assert.equal(response.statusCode, 401);
      assert.deepEqual(response.json(), { description_status: texts.unauthorized });
      // A proof's refusal names its fault in error_description; the body stays the seed's.
      assert.match(String(response.headers['www-authenticate']), error === 'invalid_token' ? /^DPoP error="invalid_token"$/ : /^DPoP error="invalid_dpop_proof", error_description="The DPoP proof[^"]*"$/);
    };

    describe('client assertions', () => {
      it('refuses a replayed assertion, on its second use', async () => {
        const assertion = await clientAssertion(key, partner.login, BASE);
        assert.equal((await tokenWith(assertion)).statusCode, 200);
        assertInvalidClient(await tokenWith(assertion));
        assert.equal(await lastReason(partner.login, 'token'), 'client_assertion_replayed');
      });

      it('refuses an expired assertion, and one living longer than five minutes', async () => {
        const now = Math.floor(Date.now() / 1000);
        assertInvalidClient(await tokenWith(await clientAssertion(key, partner.login, BASE, { claims: { iat: now - 600, exp: now - 300 } })));
        assertInvalidClient(await tokenWith(await clientAssertion(key, partner.login, BASE, { claims: { exp: now + 3600 } })));
      });

      it('refuses an assertion signed by a key the partner never registered, even naming a registered kid', async () => {
        const stranger = await testKey('ES256', key.kid);
        assertInvalidClient(await tokenWith(await clientAssertion(stranger, partner.login, BASE)));
        const unnamed = await testKey('ES256');
        assertInvalidClient(await tokenWith(await clientAssertion(unnamed, partner.login, BASE)));
      });

      it('refuses alg none and HS256 assertions', async () => {
        const now = Math.floor(Date.now() / 1000);
        const claims = { iss: partner.login, sub: partner.login, aud: BASE, iat: now, exp: now + 60, jti: `none-${now}` };
        const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
        assertInvalidClient(await tokenWith(`${b64({ alg: 'none', kid: key.kid })}.${b64(claims)}.`));
        // HS256 keyed with the public key's own coordinates: the classic algorithm-confusion forgery.
        const secret = new TextEncoder().encode(JSON.stringify(key.publicJwk));
        const hs = await new SignJWT({ ...claims, jti: `hs-${now}` }).setProtectedHeader({ alg: 'HS256', kid: key.kid }).sign(secret);
        assertInvalidClient(await tokenWith(hs));
      });

      it('refuses an assertion for another audience, saying which it must be', async () => {
        for (const aud of ['https://other-as.example', `${BASE}/api/v1/login/`]) {
          const response = await tokenWith(await clientAssertion(key, partner.login, aud));
          assert.equal(response.statusCode, 401);
          assert.deepEqual(response.json(), {
            error: 'invalid_client',
            error_description: `the client assertion's aud must be the issuer identifier ${BASE} as a single string`,
            description_status: texts.unauthorized,
          });
        }
        assert.equal(await lastReason(partner.login, 'token'), 'client_assertion_audience');
      });

      it("refuses one partner's key asserting another partner's login", async () => {
        assertInvalidClient(await tokenWith(await clientAssertion(key, keyOnly.login, BASE)));
      });
    });

    describe('DPoP-bound tokens at banks', () => {
      it('serves a bound token with a fresh proof of its key, and refuses it as Bearer', async () => {
        const dpopKey = await testKey();
        const token = await boundToken(dpopKey);
        const ok = await banksWith(token, await dpopProof(dpopKey, 'POST', BANKS_URL, { accessToken: token }));
        assert.equal(ok.statusCode, 200, ok.body);
        assertDpopRefusal(await banksWith(token, undefined, 'Bearer'), 'invalid_token');
        assert.equal(await lastReason(partner.login, 'banks'), null);
      });

      it('refuses a replayed proof', async () => {
        const dpopKey = await testKey();
        const token = await boundToken(dpopKey);
        const proof = await dpopProof(dpopKey, 'POST', BANKS_URL, { accessToken: token });
        assert.equal((await banksWith(token, proof)).statusCode, 200);
        assertDpopRefusal(await banksWith(token, proof), 'invalid_dpop_proof');
      });

      it('refuses a proof for another URL, another method, without ath, by another key, or with a stale iat', async () => {
        const dpopKey = await testKey();
        const other = await testKey();
        const token = await boundToken(dpopKey);
        const cases = [
          await dpopProof(dpopKey, 'POST', `${BASE}/api/v1/logout/`, { accessToken: token }),
          await dpopProof(dpopKey, 'GET', BANKS_URL, { accessToken: token }),
          await dpopProof(dpopKey, 'POST', BANKS_URL),
          await dpopProof(dpopKey, 'POST', BANKS_URL, { accessToken: `${token}x` }),
          await dpopProof(other, 'POST', BANKS_URL, { accessToken: token }),
          await dpopProof(dpopKey, 'POST', BANKS_URL, { accessToken: token, now: Date.now() - (JWE_MAX_AGE + 30) * 1000 }),
          await dpopProof(dpopKey, 'POST', BANKS_URL, { accessToken: token, now: Date.now() + 3600_000 }),
        ];
        for (const proof of cases) assertDpopRefusal(await banksWith(token, proof), 'invalid_dpop_proof');
        assertDpopRefusal(await banksWith(token, undefined), 'invalid_dpop_proof');
        // The right proof still works afterwards: none of the refused ones spent anything of the token.
        assert.equal((await banksWith(token, await dpopProof(dpopKey, 'POST', BANKS_URL, { accessToken: token }))).statusCode, 200);
      });

      it('refuses an unbound token sent with the DPoP scheme', async () => {
        const bearer = (await tokenWith(await clientAssertion(key, partner.login, BASE))).json().access_token as string;
        const dpopKey = await testKey();
        assertDpopRefusal(await banksWith(bearer, await dpopProof(dpopKey, 'POST', BANKS_URL, { accessToken: bearer })), 'invalid_token');
      });

      it('answers 400 invalid_dpop_proof for a bad proof at the token endpoint', async () => {
        const dpopKey = await testKey();
        const response = await tokenWith(await clientAssertion(key, partner.login, BASE), { dpop: await dpopProof(dpopKey, 'POST', `${BASE}/elsewhere`) });
        assert.equal(response.statusCode, 400);
        assert.equal(response.json().error, 'invalid_dpop_proof');
        const replay = await dpopProof(dpopKey, 'POST', TOKEN_URL);
        assert.equal((await tokenWith(await clientAssertion(key, partner.login, BASE), { dpop: replay })).statusCode, 200);
        const again = await tokenWith(await clientAssertion(key, partner.login, BASE), { dpop: replay });
        assert.equal(again.statusCode, 400);
        assert.equal(again.json().error, 'invalid_dpop_proof');
      });
    });

    describe("a key-only partner's password", () => {
      const same = (a: { statusCode: number; body: string; headers: Record<string, unknown> }, b: typeof a) => {
        assert.equal(a.statusCode, b.statusCode);
        assert.equal(a.body, b.body);
        assert.equal(a.headers['www-authenticate'], b.headers['www-authenticate']);
      };

      it('is refused at login with the seed 401, the right one answered exactly as a wrong one', async () => {
        const right = await t.app.inject({ method: 'POST', url: '/api/v1/login/', payload: { login: keyOnly.login, password: keyOnly.password } });
        assert.equal(right.statusCode, 401);
        assert.deepEqual(right.json(), { description_status: texts.unauthorized });
        assert.equal(await lastReason(keyOnly.login, 'login'), 'password_not_allowed');
        const wrong = await t.app.inject({ method: 'POST', url: '/api/v1/login/', payload: { login: keyOnly.login, password: 'not the password 1' } });
        same(right, wrong);
      });

      it('is refused at the encrypted-password banks call, the right one answered exactly as a wrong one', async () => {
        const jwks = (await t.app.inject({ method: 'GET', url: '/.well-known/jwks.json' })).json() as { keys: JWK[] };
        const call = async (password: string) =>
          t.app.inject({ method: 'POST', url: BANKS, query: { partnerName: keyOnly.login, partnerPassword: await encryptPassword(password, jwks), useAuthByCert: 'Y' } });
        const right = await call(keyOnly.password);
        assert.equal(right.statusCode, 401);
        assert.deepEqual(right.json(), { description_status: texts.unauthorized });
        assert.equal(await lastReason(keyOnly.login, 'banks'), 'password_not_allowed');
        same(right, await call(keyOnly.password));
        same(right, await call('not the password 2'));
      });

      it('is refused as client_secret_basic and client_secret_post, the right one answered exactly as a wrong one', async () => {
        const basic = (password: string) =>
          post(TOKEN_PATH, { grant_type: 'client_credentials' }, { authorization: `Basic ${Buffer.from(`${keyOnly.login}:${encodeURIComponent(password)}`).toString('base64')}` });
        const right = await basic(keyOnly.password);
        assertInvalidClient(right);
        assert.match(String(right.headers['www-authenticate']), /^Basic /);
        assert.equal(await lastReason(keyOnly.login, 'token'), 'password_not_allowed');
        same(right, await basic('not the password 3'));
        const viaPost = (password: string) => post(TOKEN_PATH, { grant_type: 'client_credentials', client_id: keyOnly.login, client_secret: password });
        const rightPost = await viaPost(keyOnly.password);
        assertInvalidClient(rightPost);
        same(rightPost, await viaPost('not the password 4'));
        // Its key still works.
        assert.equal((await tokenWith(await clientAssertion(keyOnlyKey, keyOnly.login, BASE))).statusCode, 200);
      });

      it('counts a right password as a failure too, so that a lockout cannot tell it from a wrong one', async () => {
        // Both cost one argon2 verification and neither resets the partner's failures: checked through the
        // audit reasons, the lockout itself being the brute-force suite's.
        await post(TOKEN_PATH, { grant_type: 'client_credentials', client_id: keyOnly.login, client_secret: keyOnly.password });
        assert.equal(await lastReason(keyOnly.login, 'token'), 'password_not_allowed');
      });
    });

    describe('binding policy', () => {
      it('never issues a bearer token to a partner requiring bound tokens: 400 at the token endpoint, 401 at login and refresh', async () => {
        const strict = await t.addPartner();
        const strictKey = await testKey();
        const loginUrl = `${BASE}/api/v1/login/`;
        // The session started before the policy changed is revoked by the change itself; this one starts after.
        await registerKeys(t.gateway, strict.login, [strictKey], { requireBound: true });
        const none = await tokenWith(await clientAssertion(strictKey, strict.login, BASE));
        assert.equal(none.statusCode, 400);
        assert.equal(none.json().error, 'invalid_request');
        assert.equal(await lastReason(strict.login, 'token'), 'dpop_required');
        const login = await t.app.inject({ method: 'POST', url: '/api/v1/login/', payload: { login: strict.login, password: strict.password } });
        assert.equal(login.statusCode, 401);
        assert.deepEqual(login.json(), { description_status: texts.unauthorized });
        assert.equal(await lastReason(strict.login, 'login'), 'dpop_required');
        const dpopKey = await testKey();
        const bound = await t.app.inject({ method: 'POST', url: '/api/v1/login/', headers: { dpop: await dpopProof(dpopKey, 'POST', loginUrl) }, payload: { login: strict.login, password: strict.password } });
        assert.equal(bound.statusCode, 200, bound.body);
        assert.equal(bound.json().token_type, 'DPoP');
        const refresh = await t.app.inject({ method: 'POST', url: '/api/v1/token/refresh/', payload: { refresh_token: bound.json().refresh_token } });
        assert.equal(refresh.statusCode, 401);
        assert.equal(await lastReason(strict.login, 'refresh'), 'dpop_required');
      });
    });

    describe('key registration', () => {
      it('refuses a JWKS carrying a private key (422 naming the key)', async () => {
        const { privateKey } = await generateKeyPair('ES256', { extractable: true });
        const privateJwk = { ...(await exportJWK(privateKey)), kid: 'leaked' };
        await assert.rejects(
          t.gateway.admin.partnerKeys.set(partner.login, { keys: [privateJwk as Record<string, unknown>] }),
          (error: unknown) => error instanceof AppError && error.status === 422 && /leaked/.test(JSON.stringify(error.extra.details)),
        );
      });

      it('refuses a jwksUri to a non-loopback http URL in production, and any plain http outside loopback', async () => {
        const production = await startTestGateway(backend, { env: { NODE_ENV: 'production', PUBLIC_URL: 'https://partners.example.com' }, seedBanks: false });
        try {
          const someone = await production.addPartner();
          for (const jwksUri of ['http://10.0.0.5/jwks.json', 'http://partner.example/jwks.json', 'http://127.0.0.1:9/jwks.json']) {
            await assert.rejects(production.gateway.admin.partnerKeys.set(someone.login, { jwksUri }), (error: unknown) => error instanceof AppError && error.status === 422);
          }
        } finally {
          await production.close();
        }
        await assert.rejects(t.gateway.admin.partnerKeys.set(partner.login, { jwksUri: 'http://10.0.0.5/jwks.json' }), (error: unknown) => error instanceof AppError && error.status === 422);
      });
    });
  });

  describe(`OAuth client authentication in the brute-force defence on ${backend.name}`, () => {
    let t: TestGateway;
    before(async () => {
      t = await startTestGateway(backend, { env: { THROTTLE_MAX_FAILURES: '3' } });
    });
    after(() => t.close());
    const post = (fields: Record<string, string>) => t.app.inject({ method: 'POST', url: TOKEN_PATH, headers: FORM_HEADERS, payload: form(fields) });

    it('counts wrong client secrets like wrong login passwords: the lock then refuses the right password at login too', async () => {
      const victim = await t.addPartner();
      for (let attempt = 0; attempt < 3; attempt++) {
        assert.equal((await post({ grant_type: 'client_credentials', client_id: victim.login, client_secret: `wrong password ${attempt}` })).statusCode, 401);
      }
      assert.equal((await post({ grant_type: 'client_credentials', client_id: victim.login, client_secret: victim.password })).statusCode, 429);
      assert.equal((await t.app.inject({ method: 'POST', url: '/api/v1/login/', payload: victim })).statusCode, 429);
    });

    it("counts refused assertions as cheap failures: further garbage is throttled, a partner's password never locked by it", async () => {
      const bystander = await t.addPartner();
      const stranger = await testKey();
      for (let attempt = 0; attempt < 3; attempt++) {
        const response = await post({ grant_type: 'client_credentials', client_assertion_type: CLIENT_ASSERTION_TYPE, client_assertion: await clientAssertion(stranger, bystander.login, BASE) });
        assert.equal(response.statusCode, 401);
      }
      const throttled = await post({ grant_type: 'client_credentials', client_assertion_type: CLIENT_ASSERTION_TYPE, client_assertion: await clientAssertion(stranger, bystander.login, BASE) });
      assert.equal(throttled.statusCode, 429);
      assert.equal((await t.app.inject({ method: 'POST', url: '/api/v1/login/', payload: bystander })).statusCode, 200);
    });
  });
}
