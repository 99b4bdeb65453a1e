import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { inspect } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { calculateJwkThumbprint, decodeJwt, decodeProtectedHeader, EmbeddedJWK, jwtVerify } from 'jose';
import { CLIENT_ASSERTION_TYPE_JWT_BEARER } from '@partner-gateway/contract/oauth';
import { addKeyPartner, partnerKey, startListeningGateway } from '../../../test/support/key-partner.js';
import { testBackends } from '../../../test/support/test-databases.js';
import type { TestGateway } from '../../../test/support/test-gateway.js';
import { PartnerApiError } from './partner-api-error.js';
import { PartnerClient } from './partner-client.js';
import { testClient, type SeenCall } from '../test/test-client.js';

const TOKEN = '/api/v1/oauth/token';
const BANKS = '/partner/provider/sbp/banks/';
const form = (call: SeenCall) => new URLSearchParams(call.body);

for (const backend of testBackends()) {
  describe(`PartnerClient with the partner's private key, against a listening gateway on ${backend.name}`, () => {
    let t: TestGateway & { url: string };
    let seeded: Array<{ name: string; bic: string }>;
    before(async () => {
      t = await startListeningGateway(backend);
      seeded = (await t.gateway.admin.banks.list()).map(({ name, bic }) => ({ name, bic }));
    });
    after(() => t.close());

    it('gets a Bearer token with a private_key_jwt assertion (iss = sub = login, aud = the issuer as a single string, 60 s, new jti) and lists the banks, never sending a password', async () => {
      const partner = await addKeyPartner(t);
      const { client, calls } = testClient(t.url, { login: partner.login }, { auth: { privateKeyJwt: { privateKey: partner.key.privateJwk, kid: partner.key.kid } } });
      for (let i = 0; i < 3; i++) assert.deepEqual(await client.banks(), seeded);
      const tokenCalls = calls.filter((call) => call.path === TOKEN);
      assert.equal(tokenCalls.length, 1, 'one token for three calls');
      const sent = form(tokenCalls[0]!);
      assert.equal(tokenCalls[0]!.headers['content-type'], 'application/x-www-form-urlencoded');
      assert.deepEqual([sent.get('grant_type'), sent.get('client_assertion_type'), sent.get('client_secret')], ['client_credentials', CLIENT_ASSERTION_TYPE_JWT_BEARER, null]);
      const { payload } = await jwtVerify(sent.get('client_assertion')!, partner.key.publicKey, { issuer: partner.login, subject: partner.login, audience: t.url });
      assert.equal(payload.aud, t.url, 'the issuer identifier, a string, not an array');
      assert.equal(payload.exp! - payload.iat!, 60);
      assert.equal(decodeProtectedHeader(sent.get('client_assertion')!).kid, partner.key.kid);
      const banksCalls = calls.filter((call) => call.path === BANKS);
      assert.ok(banksCalls.every((call) => /^Bearer eyJ/.test(call.headers.authorization!) && call.headers.dpop === undefined));
      assert.ok(!calls.some((call) => call.path === '/api/v1/login/'));
    });

    it('signs with an Ed25519 CryptoKey and with an RSA PEM (EdDSA and PS256, inferred from the key)', async () => {
      for (const [alg, input] of [['EdDSA', 'privateKey'], ['PS256', 'pem']] as const) {
        const key = await partnerKey(alg);
        const partner = await addKeyPartner(t, { key });
        const { client, calls } = testClient(t.url, { login: partner.login }, { auth: { privateKeyJwt: { privateKey: key[input], kid: key.kid } } });
        assert.deepEqual(await client.banks(), seeded, alg);
        assert.equal(decodeProtectedHeader(form(calls.find((call) => call.path === TOKEN)!).get('client_assertion')!).alg, alg);
      }
    });

    it('with dpop: true, gets a DPoP token bound to its key and sends every banks call as DPoP with a fresh proof (htm, htu, ath)', async () => {
      const partner = await addKeyPartner(t);
      const { client, calls } = testClient(t.url, { login: partner.login }, { auth: { privateKeyJwt: { privateKey: partner.key.privateKey, kid: partner.key.kid } }, dpop: true });
      const token = await client.login();
      assert.equal(token.tokenType, 'DPoP');
      for (let i = 0; i < 2; i++) assert.deepEqual(await client.banks(), seeded);
      const tokenProof = calls.find((call) => call.path === TOKEN)!.headers.dpop!;
      const jkt = await calculateJwkThumbprint(decodeProtectedHeader(tokenProof).jwk!);
      assert.deepEqual(decodeJwt(token.accessToken).cnf, { jkt });
      const proofs = [];
      for (const call of calls.filter((seen) => seen.path === BANKS)) {
        assert.equal(call.headers.authorization, `DPoP ${token.accessToken}`);
        const { payload, protectedHeader } = await jwtVerify(call.headers.dpop!, EmbeddedJWK, { typ: 'dpop+jwt' });
        assert.equal(await calculateJwkThumbprint(protectedHeader.jwk!), jkt);
        assert.deepEqual([payload.htm, payload.htu, payload.ath], ['POST', `${t.url}${BANKS}`, createHash('sha256').update(token.accessToken).digest('base64url')]);
        proofs.push(payload.jti);
      }
      assert.equal(new Set(proofs).size, 2, 'a new proof every call');
      const asBearer = await fetch(`${t.url}${BANKS}`, { method: 'POST', headers: { authorization: `Bearer ${token.accessToken}` } });
      assert.equal(asBearer.status, 401, 'the bound token is worthless as a bearer token');
    });

    it('shares one token request among 20 concurrent calls', async () => {
      const partner = await addKeyPartner(t);
      const { client, calls } = testClient(t.url, { login: partner.login }, { auth: { privateKeyJwt: { privateKey: partner.key.pem, kid: partner.key.kid } }, dpop: true });
      const results = await Promise.all(Array.from({ length: 20 }, () => client.banks()));
      assert.ok(results.every((banks) => banks.length === seeded.length));
      assert.equal(calls.filter((call) => call.path === TOKEN).length, 1);
    });

    it('logout revokes the token at the revocation endpoint; the next banks() gets a new one with a new assertion', async () => {
      const partner = await addKeyPartner(t);
      const { client, calls } = testClient(t.url, { login: partner.login }, { auth: { privateKeyJwt: { privateKey: partner.key.privateJwk, kid: partner.key.kid } } });
      const { accessToken } = await client.login();
      await client.logout();
      const revoke = calls.find((call) => call.path === '/api/v1/oauth/revoke')!;
      assert.equal(form(revoke).get('token'), accessToken);
      assert.equal((await jwtVerify(form(revoke).get('client_assertion')!, partner.key.publicKey)).payload.aud, t.url);
      const old = await fetch(`${t.url}${BANKS}`, { method: 'POST', headers: { authorization: `Bearer ${accessToken}` } });
      assert.equal(old.status, 401);
      assert.deepEqual(await client.banks(), seeded);
      const assertions = calls.filter((call) => call.path === TOKEN).map((call) => decodeJwt(form(call).get('client_assertion')!).jti);
      assert.equal(new Set(assertions).size, 2);
    });

    it('renews once and repeats the call once when the gateway refuses a token it revoked', async () => {
      const partner = await addKeyPartner(t);
      const { client, calls } = testClient(t.url, { login: partner.login }, { auth: { privateKeyJwt: { privateKey: partner.key.privateJwk, kid: partner.key.kid } }, dpop: true });
      await client.banks();
      // Blocking revokes every token of the partner; unblocking does not bring them back.
      await t.gateway.admin.partners.update(partner.login, { status: 'blocked' });
      await t.gateway.admin.partners.update(partner.login, { status: 'active' });
      assert.deepEqual(await client.banks(), seeded);
      assert.deepEqual([calls.filter((call) => call.path === TOKEN).length, calls.filter((call) => call.path === BANKS).length], [2, 3]);
    });

    it('reports a key the gateway does not know as unauthorized at the token operation, naming neither key nor assertion', async () => {
      const partner = await addKeyPartner(t);
      const stranger = await partnerKey();
      const { client, calls } = testClient(t.url, { login: partner.login }, { auth: { privateKeyJwt: { privateKey: stranger.privateJwk, kid: partner.key.kid } } });
      const error = await client.banks().then(() => assert.fail('an unregistered key must be refused'), (failure: unknown) => failure);
      assert.ok(error instanceof PartnerApiError);
      assert.deepEqual([error.kind, error.operation, error.status], ['unauthorized', 'token', 401]);
      const assertion = form(calls.find((call) => call.path === TOKEN)!).get('client_assertion')!;
      for (const shown of [String(error), inspect(error), inspect(client, { showHidden: true, depth: 10 }), JSON.stringify(client)]) {
        assert.ok(!shown.includes(assertion) && !shown.includes(stranger.privateJwk.d!));
      }
    });

    it('when the gateway has an issuer of its own (TOKEN_ISSUER), then privateKeyJwt.issuer names it, and without it the token request is refused', async () => {
      const named = await startListeningGateway(backend, { env: { TOKEN_ISSUER: 'https://issuer.partners.example' } });
      try {
        const partner = await addKeyPartner(named);
        const key = { privateKey: partner.key.privateJwk, kid: partner.key.kid };
        const refused = await testClient(named.url, { login: partner.login }, { auth: { privateKeyJwt: key } }).client.login().catch((failure: unknown) => failure);
        assert.ok(refused instanceof PartnerApiError);
        assert.deepEqual([refused.kind, refused.operation, refused.status], ['unauthorized', 'token', 401]);
        const { client, calls } = testClient(named.url, { login: partner.login }, { auth: { privateKeyJwt: { ...key, issuer: 'https://issuer.partners.example' } } });
        assert.equal((await client.banks()).length, seeded.length);
        assert.equal(decodeJwt(form(calls.find((call) => call.path === TOKEN)!).get('client_assertion')!).aud, 'https://issuer.partners.example');
      } finally {
        await named.close();
      }
    });

    it('a partner that requires bound tokens: the DPoP client gets one, a client without DPoP is refused with invalid_request', async () => {
      const partner = await addKeyPartner(t, { requireBound: true });
      const auth = { privateKeyJwt: { privateKey: partner.key.privateJwk, kid: partner.key.kid } };
      assert.deepEqual(await testClient(t.url, { login: partner.login }, { auth, dpop: true }).client.banks(), seeded);
      const error = await testClient(t.url, { login: partner.login }, { auth }).client.login().catch((failure: unknown) => failure);
      assert.ok(error instanceof PartnerApiError);
      assert.deepEqual([error.kind, error.operation, error.status], ['invalid_request', 'token', 400]);
    });

    it('with the password and dpop: true, the seed\'s login binds the token of a partner that requires it', async () => {
      const partner = await addKeyPartner(t, { methods: ['password'], requireBound: true });
      const { client, calls } = testClient(t.url, { login: partner.login, password: partner.password }, { dpop: true });
      const token = await client.login();
      assert.equal(token.tokenType, 'DPoP');
      assert.deepEqual(await client.banks(), seeded);
      const login = calls.find((call) => call.path === '/api/v1/login/')!;
      assert.equal((await jwtVerify(login.headers.dpop!, EmbeddedJWK)).payload.htu, `${t.url}/api/v1/login/`);
      const refused = await testClient(t.url, { login: partner.login, password: partner.password }).client.login().catch((failure: unknown) => failure);
      assert.ok(refused instanceof PartnerApiError && refused.kind === 'unauthorized', 'no proof, no token');
      await client.logout();
      const logout = calls.find((call) => call.path === '/api/v1/logout/')!;
      assert.equal(logout.headers.authorization, `DPoP ${token.accessToken}`, 'the bound token ends its session with a proof');
      const after = await fetch(`${t.url}${BANKS}`, { method: 'POST', headers: { authorization: `DPoP ${token.accessToken}` } });
      assert.equal(after.status, 401);
    });
  });
}

describe('PartnerClient key options', () => {
  const base = { authUrl: 'http://127.0.0.1:1', apiUrl: 'http://127.0.0.1:1', login: 'acme' };

  it('refuses neither password nor key, a key without kid, and an unsupported key, at construction', async () => {
    const key = await partnerKey('ES256');
    assert.throws(() => new PartnerClient(base), /login and a password \(or auth\.privateKeyJwt, or auth\.tlsClientAuth with tls\)/);
    assert.throws(() => new PartnerClient({ ...base, auth: { privateKeyJwt: { privateKey: key.privateJwk, kid: '' } } }), /needs the kid/);
    assert.throws(() => new PartnerClient({ ...base, auth: { privateKeyJwt: { privateKey: key.publicJwk, kid: 'k' } } }), /not a private key/);
  });

  it('refuses a certificate credential without a certificate, and a certificate beside a fetch of its own', () => {
    assert.throws(() => new PartnerClient({ ...base, auth: { tlsClientAuth: true } }), /auth\.tlsClientAuth needs tls/);
    const tls = { cert: 'cert', key: 'key' };
    assert.throws(() => new PartnerClient({ ...base, auth: { tlsClientAuth: true }, tls, fetch: globalThis.fetch }), /either tls or your own fetch/);
  });

  it('refuses banksWithPassword() without a password', async () => {
    const key = await partnerKey('ES256');
    const client = new PartnerClient({ ...base, auth: { privateKeyJwt: { privateKey: key.privateJwk, kid: key.kid } } });
    await assert.rejects(client.banksWithPassword(), /needs the password option/);
  });

  it('keeps the private key out of what inspecting or serialising the client shows', async () => {
    const key = await partnerKey('ES256');
    const client = new PartnerClient({ ...base, auth: { privateKeyJwt: { privateKey: key.pem, kid: key.kid } }, dpop: true });
    const shown = inspect(client, { showHidden: true, depth: 10 }) + JSON.stringify(client);
    assert.ok(!shown.includes(key.privateJwk.d!) && !shown.includes(key.pem.split('\n')[1]!));
  });
});
