import assert from 'node:assert/strict';
import { createHmac, generateKeyPairSync } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { SignJWT, exportJWK, type JWK } from 'jose';
import { texts } from '../../src/errors.js';
import { argon2Verifications } from '../../src/partners/password-hasher.js';
import { encryptPassword } from '../support/encrypt-password.js';
import { testBackends } from '../support/test-databases.js';
import { signingKeyOf, startTestGateway, type TestGateway } from '../support/test-gateway.js';

const BANKS = '/partner/provider/sbp/banks/';
const b64 = (value: unknown) => Buffer.from(typeof value === 'string' ? value : JSON.stringify(value)).toString('base64url');

for (const backend of testBackends()) {
  describe(`attacks on ${backend.name}: every forgery is a 4xx JSON error, never a 5xx`, () => {
    let t: TestGateway;
    let partner: { login: string; password: string; id: string };
    let token: string;
    let claims: Record<string, unknown>;
    let jwks: { keys: JWK[] };
    let signing: Awaited<ReturnType<typeof signingKeyOf>>;
    before(async () => {
      t = await startTestGateway(backend);
      signing = await signingKeyOf(t);
      partner = await t.addPartner();
      token = (await t.app.inject({ method: 'POST', url: '/api/v1/login/', payload: partner })).json().access_token;
      claims = JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString());
      jwks = (await t.app.inject({ method: 'GET', url: '/.well-known/jwks.json' })).json();
    });
    after(() => t.close());

    const bearer = (value: string) => t.app.inject({ method: 'POST', url: BANKS, headers: { authorization: `Bearer ${value}` } });
    const expectRefused = async (response: Awaited<ReturnType<typeof bearer>>, label: string) => {
      assert.ok(response.statusCode >= 400 && response.statusCode < 500, `${label}: ${response.statusCode}`);
      assert.ok(typeof response.json().description_status === 'string', label);
      assert.ok(!response.body.includes('at '), `${label}: no stack trace`);
    };
    const signWithOurKey = (payload: Record<string, unknown>, header: Record<string, unknown> = {}) => {
      return new SignJWT(payload)
        .setProtectedHeader({ alg: 'ES256', typ: 'at+jwt', kid: signing.kid, ...header } as never)
        .sign(signing.key, { crit: { exp: true } });
    };

    it('accepts the genuine token (the baseline)', async () => {
      assert.equal((await bearer(token)).statusCode, 200);
    });

    it('refuses alg none, and HS256 signed with our public key as the secret', async () => {
      const none = `${b64({ alg: 'none', typ: 'at+jwt' })}.${b64(claims)}.`;
      assert.equal((await bearer(none)).statusCode, 401);
      const sigKey = jwks.keys.find((key) => key.use === 'sig')!;
      for (const secret of [JSON.stringify(sigKey), `${sigKey.x}${sigKey.y}`]) {
        const head = b64({ alg: 'HS256', typ: 'at+jwt', kid: sigKey.kid });
        const body = b64(claims);
        const mac = createHmac('sha256', secret).update(`${head}.${body}`).digest('base64url');
        assert.equal((await bearer(`${head}.${body}.${mac}`)).statusCode, 401);
      }
    });

    it('refuses an unknown kid, a tampered payload, a crit header and a 16 KiB token', async () => {
      const [head, body, signature] = token.split('.') as [string, string, string];
      const header = JSON.parse(Buffer.from(head, 'base64url').toString());
      assert.equal((await bearer(`${b64({ ...header, kid: 'unknown-kid' })}.${body}.${signature}`)).statusCode, 401);
      assert.equal((await bearer(`${head}.${b64({ ...claims, client_id: 'someone-else' })}.${signature}`)).statusCode, 401);
      assert.equal((await bearer(await signWithOurKey(claims, { crit: ['exp'], exp: 1 }))).statusCode, 401);
      const huge = await bearer(`${head}.${b64({ ...claims, pad: 'x'.repeat(16 * 1024) })}.${signature}`);
      await expectRefused(huge, '16 KiB token');
    });

    it('refuses an expired token, nbf in the future, and a wrong issuer or audience, all signed with our own key', async () => {
      const now = Math.floor(Date.now() / 1000);
      const variants: Record<string, Record<string, unknown>> = {
        expired: { ...claims, iat: now - 3600, exp: now - 60 },
        'nbf in the future': { ...claims, nbf: now + 3600 },
        'wrong issuer': { ...claims, iss: 'https://evil.example' },
        'wrong audience': { ...claims, aud: 'another-api' },
        'no jti': { ...claims, jti: undefined },
      };
      for (const [label, payload] of Object.entries(variants)) {
        const response = await bearer(await signWithOurKey(payload));
        assert.equal(response.statusCode, 401, label);
        assert.deepEqual(response.json(), { description_status: texts.unauthorized }, label);
      }
      assert.equal((await bearer(await signWithOurKey(claims, { typ: 'JWT' }))).statusCode, 401, 'typ must be at+jwt');
    });

    it('refuses a JWE with a tampered IV, encrypted to a foreign key, or carrying 1 MiB of plaintext', async () => {
      const jwe = await encryptPassword(partner.password, jwks);
      const [h, k, iv, c, tag] = jwe.split('.') as [string, string, string, string, string];
      const flipped = (iv[0] === 'A' ? 'B' : 'A') + iv.slice(1);
      const call = (value: string) => t.app.inject({ method: 'POST', url: `${BANKS}?partnerName=${partner.login}&partnerPassword=${value}&useAuthByCert=Y` });
      assert.equal((await call([h, k, flipped, c, tag].join('.'))).statusCode, 401);

      const foreign = generateKeyPairSync('rsa', { modulusLength: 2048 });
      const foreignJwk = { ...(await exportJWK(foreign.publicKey)), kid: jwks.keys.find((key) => key.use === 'enc')!.kid, use: 'enc', alg: 'RSA-OAEP-256' };
      assert.equal((await call(await encryptPassword(partner.password, jwks, { key: foreignJwk }))).statusCode, 401);

      const huge = await call(await encryptPassword('x'.repeat(1024 * 1024), jwks));
      await expectRefused(huge, '1 MiB plaintext');
    });

    it('spends exactly one argon2 verification on an unknown login, as on a wrong password', async () => {
      const before = argon2Verifications();
      await t.app.inject({ method: 'POST', url: '/api/v1/login/', payload: { login: 'nobody-by-that-name', password: 'whatever it is' } });
      const unknown = argon2Verifications() - before;
      const middle = argon2Verifications();
      await t.app.inject({ method: 'POST', url: '/api/v1/login/', payload: { login: partner.login, password: 'whatever it is' } });
      const wrong = argon2Verifications() - middle;
      assert.equal(unknown, 1);
      assert.equal(wrong, 1);
    });

    it('answers a login containing NUL, which no partner can have, as an unknown login: a 401 after one argon2 verification', async () => {
      const before = argon2Verifications();
      const response = await t.app.inject({ method: 'POST', url: '/api/v1/login/', payload: { login: `${partner.login}\0`, password: partner.password } });
      assert.equal(argon2Verifications() - before, 1);
      assert.equal(response.statusCode, 401);
      assert.deepEqual(response.json(), { description_status: texts.unauthorized });
    });
  });
}
