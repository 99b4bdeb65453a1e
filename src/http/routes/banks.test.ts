import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { texts } from '../../errors.js';
import { projectFile } from '../../project-root.js';
import { encryptPassword } from '../../../test/support/encrypt-password.js';
import { testBackends } from '../../../test/support/test-databases.js';
import { startTestGateway, type TestGateway } from '../../../test/support/test-gateway.js';

const BANKS = '/partner/provider/sbp/banks/';
const seedBanks = (JSON.parse(readFileSync(projectFile('seeds/sbp-banks.json'), 'utf8')) as { banks: Array<{ name: string; bic: string }> }).banks;
const missing = (name: string) => `A required parameter ${name} was omitted; repeat the request with correct data`;

for (const backend of testBackends()) {
  describe(`banks on ${backend.name}`, () => {
    let t: TestGateway;
    let partner: { login: string; password: string; id: string };
    let jwks: { keys: never[] };
    before(async () => {
      // cards: a partner with another reward type than sbp (REWARD_TYPES' catalogue must hold it).
      t = await startTestGateway(backend, { env: { REWARD_TYPES: 'sbp,cards' } });
      partner = await t.addPartner();
      jwks = (await t.app.inject({ method: 'GET', url: '/.well-known/jwks.json' })).json();
    });
    after(() => t.close());

    const query = (params: Record<string, string>) => `${BANKS}?${new URLSearchParams(params)}`;
    const withPassword = async (who = partner, header: Record<string, unknown> = {}, extra: Record<string, unknown> = {}) =>
      t.app.inject({
        method: 'POST',
        url: query({ partnerName: who.login, partnerPassword: await encryptPassword(who.password, jwks, { header }), useAuthByCert: 'Y' }),
        ...extra,
      });
    const bearerFor = async (who = partner) =>
      (await t.app.inject({ method: 'POST', url: '/api/v1/login/', payload: { login: who.login, password: who.password } })).json()
        .access_token as string;

    it('lists the seeded SBP banks, name and BIC only, in the seed order, for an encrypted password', async () => {
      const response = await withPassword();
      assert.equal(response.statusCode, 200);
      const body = response.json();
      assert.deepEqual(Object.keys(body), ['banks']);
      assert.deepEqual(body.banks, seedBanks.map(({ name, bic }) => ({ name, bic })));
      assert.ok(body.banks.every((bank: { bic: unknown }) => typeof bank.bic === 'string' && /^04\d{7}$/.test(bank.bic as string)));
    });

    it('lists the banks for a bearer token, with or without the matching partnerName', async () => {
      const token = await bearerFor();
      const plain = await t.app.inject({ method: 'POST', url: BANKS, headers: { authorization: `Bearer ${token}` } });
      assert.equal(plain.statusCode, 200);
      assert.equal(plain.json().banks.length, seedBanks.length);
      const named = await t.app.inject({ method: 'POST', url: query({ partnerName: partner.login }), headers: { authorization: `Bearer ${token}` } });
      assert.equal(named.statusCode, 200);
    });

    it("refuses a bearer token used under another partner's name, with WWW-Authenticate", async () => {
      const other = await t.addPartner();
      const response = await t.app.inject({
        method: 'POST',
        url: query({ partnerName: other.login }),
        headers: { authorization: `Bearer ${await bearerFor()}` },
      });
      assert.equal(response.statusCode, 401);
      assert.deepEqual(response.json(), { description_status: texts.unauthorized });
      assert.equal(response.headers['www-authenticate'], 'Bearer error="invalid_token"');
    });

    it('when a token was just accepted, then the same signature under a tampered payload, or a garbage token, is refused with 401 and WWW-Authenticate', async () => {
      const token = await bearerFor();
      // Accepted and remembered first: the remembered token is found by its tail, which the tampered one shares.
      assert.equal((await t.app.inject({ method: 'POST', url: BANKS, headers: { authorization: `Bearer ${token}` } })).statusCode, 200);
      const [header, payload, signature] = token.split('.');
      const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
      const tampered = [header, Buffer.from(JSON.stringify({ ...claims, sub: 'someone' })).toString('base64url'), signature].join('.');
      for (const value of [`Bearer ${tampered}`, 'Bearer not-a-jwt', 'Bearer ', 'Basic dXNlcjpwYXNz', `Bearer ${'a'.repeat(5000)}`]) {
        const response = await t.app.inject({ method: 'POST', url: BANKS, headers: { authorization: value } });
        assert.equal(response.statusCode, 401, value.slice(0, 30));
        assert.equal(response.headers['www-authenticate'], 'Bearer error="invalid_token"');
      }
    });

    it('reports missing parameters in the fixed order partnerName, partnerPassword, useAuthByCert; empty counts as omitted', async () => {
      const cases: Array<[Record<string, string>, string]> = [
        [{}, 'partnerName'],
        [{ partnerPassword: 'x', useAuthByCert: 'Y' }, 'partnerName'],
        [{ partnerName: '', partnerPassword: 'x' }, 'partnerName'],
        [{ partnerName: 'a' }, 'partnerPassword'],
        [{ partnerName: 'a', partnerPassword: '', useAuthByCert: 'Y' }, 'partnerPassword'],
        [{ partnerName: 'a', partnerPassword: 'x' }, 'useAuthByCert'],
        [{ partnerName: 'a', partnerPassword: 'x', useAuthByCert: '' }, 'useAuthByCert'],
      ];
      for (const [params, name] of cases) {
        const response = await t.app.inject({ method: 'POST', url: query(params) });
        assert.equal(response.statusCode, 422, JSON.stringify(params));
        assert.deepEqual(response.json(), { description_status: missing(name) });
      }
    });

    it('refuses useAuthByCert=N and a plain password as not encrypted, and other useAuthByCert values as invalid', async () => {
      const jwe = await encryptPassword(partner.password, jwks);
      const n = await t.app.inject({ method: 'POST', url: query({ partnerName: partner.login, partnerPassword: jwe, useAuthByCert: 'N' }) });
      assert.equal(n.statusCode, 422);
      assert.deepEqual(n.json(), { description_status: texts.notEncrypted });
      for (const plain of [partner.password, 'a.b.c', 'a.b.c.d.e.f', 'a.b.c.d.e!']) {
        const response = await t.app.inject({ method: 'POST', url: query({ partnerName: partner.login, partnerPassword: plain, useAuthByCert: 'Y' }) });
        assert.equal(response.statusCode, 422, plain);
        assert.deepEqual(response.json(), { description_status: texts.notEncrypted });
      }
      const other = await t.app.inject({ method: 'POST', url: query({ partnerName: partner.login, partnerPassword: jwe, useAuthByCert: 'yes' }) });
      assert.equal(other.statusCode, 422);
      assert.equal(other.json().description_status, 'Parameter useAuthByCert has an invalid value; repeat the request with correct data');
    });

    it('answers a duplicated query parameter with a 422 naming it', async () => {
      const response = await t.app.inject({ method: 'POST', url: `${BANKS}?partnerName=a&partnerName=b&partnerPassword=x&useAuthByCert=Y` });
      assert.equal(response.statusCode, 422);
      assert.equal(response.json().description_status, 'Parameter partnerName has an invalid value; repeat the request with correct data');
    });

    it('gives the same 401 for an unknown partner, a wrong password and an undecryptable JWE', async () => {
      const jwe = await encryptPassword(partner.password, jwks);
      const [h, k, iv, c, tag] = jwe.split('.') as [string, string, string, string, string];
      const flip = (part: string) => (part[0] === 'A' ? 'B' : 'A') + part.slice(1);
      const attempts = [
        await withPassword({ ...partner, login: 'nobody-here' }),
        await withPassword({ ...partner, password: 'the wrong password' }),
        await t.app.inject({ method: 'POST', url: query({ partnerName: partner.login, partnerPassword: [h, k, iv, c, flip(tag)].join('.'), useAuthByCert: 'Y' }) }),
        await t.app.inject({ method: 'POST', url: query({ partnerName: partner.login, partnerPassword: [h, k, iv, flip(c), tag].join('.'), useAuthByCert: 'Y' }) }),
        await t.app.inject({ method: 'POST', url: query({ partnerName: partner.login, partnerPassword: [h, flip(k), iv, c, tag].join('.'), useAuthByCert: 'Y' }) }),
        await t.app.inject({ method: 'POST', url: query({ partnerName: partner.login, partnerPassword: 'e30.a.b.c.d', useAuthByCert: 'Y' }) }),
      ];
      for (const response of attempts) {
        assert.equal(response.statusCode, 401);
        assert.deepEqual(response.json(), { description_status: texts.unauthorized });
      }
    });

    it('refuses a replayed JWE: each jti is accepted once', async () => {
      const url = query({ partnerName: partner.login, partnerPassword: await encryptPassword(partner.password, jwks), useAuthByCert: 'Y' });
      assert.equal((await t.app.inject({ method: 'POST', url })).statusCode, 200);
      const replay = await t.app.inject({ method: 'POST', url });
      assert.equal(replay.statusCode, 401);
      const sameJti = await withPassword(partner, { jti: 'fixed-jti-1' });
      assert.equal(sameJti.statusCode, 200);
      assert.equal((await withPassword(partner, { jti: 'fixed-jti-1' })).statusCode, 401);
    });

    it('accepts iat from now-120 s to now+30 s and refuses it outside', async () => {
      const now = Math.floor(Date.now() / 1000);
      assert.equal((await withPassword(partner, { iat: now - 100 })).statusCode, 200);
      assert.equal((await withPassword(partner, { iat: now + 20 })).statusCode, 200);
      for (const iat of [now - 3600, now - 130, now + 60, now + 3600, 'yesterday', now + 0.5, undefined]) {
        const response = await withPassword(partner, { iat });
        assert.equal(response.statusCode, 401, String(iat));
      }
    });

    it('refuses other algorithms, a zip or crit header, an unknown kid and a missing jti', async () => {
      const jwe = await encryptPassword(partner.password, jwks);
      const [, ...rest] = jwe.split('.');
      const original = JSON.parse(Buffer.from(jwe.split('.')[0]!, 'base64url').toString());
      const forged = (changes: Record<string, unknown>) =>
        [Buffer.from(JSON.stringify({ ...original, ...changes })).toString('base64url'), ...rest].join('.');
      const variants = [
        forged({ alg: 'RSA1_5' }),
        forged({ alg: 'RSA-OAEP' }),
        forged({ alg: 'dir' }),
        forged({ alg: 'A128KW' }),
        forged({ enc: 'A128GCM' }),
        forged({ enc: 'A256CBC-HS512' }),
        forged({ zip: 'DEF' }),
        forged({ crit: ['exp'], exp: 1 }),
        forged({ kid: 'not-a-key-of-ours' }),
        forged({ jti: undefined }),
        forged({ jti: 12 }),
      ];
      for (const value of variants) {
        const response = await t.app.inject({ method: 'POST', url: query({ partnerName: partner.login, partnerPassword: value, useAuthByCert: 'Y' }) });
        assert.equal(response.statusCode, 401, Buffer.from(value.split('.')[0]!, 'base64url').toString());
        assert.deepEqual(response.json(), { description_status: texts.unauthorized });
      }
    });

    it('checks blocked, then IP, then reward type, each only after the credentials are proven', async () => {
      const everythingWrong = await t.addPartner({ status: 'blocked', ipAllowlist: ['10.0.0.0/8'], rewardTypes: ['cards'] });
      assert.equal((await withPassword({ ...everythingWrong, password: 'wrong wrong wrong' })).statusCode, 401);
      const blocked = await withPassword(everythingWrong);
      assert.equal(blocked.statusCode, 403);
      assert.deepEqual(blocked.json(), { description_status: texts.blocked });

      const foreign = await t.addPartner({ ipAllowlist: ['10.0.0.0/8'], rewardTypes: ['cards'] });
      const ip = await withPassword(foreign);
      assert.equal(ip.statusCode, 403);
      assert.deepEqual(ip.json(), { description_status: texts.ipNotAllowed });

      const noSbp = await t.addPartner({ rewardTypes: ['cards'] });
      const reward = await withPassword(noSbp);
      assert.equal(reward.statusCode, 403);
      assert.deepEqual(reward.json(), { description_status: texts.rewardTypeUnavailable });
    });

    it('applies the same checks to a bearer token, and honours a change to the partner on the next request', async () => {
      const changing = await t.addPartner();
      let token = await bearerFor(changing);
      const call = () => t.app.inject({ method: 'POST', url: BANKS, headers: { authorization: `Bearer ${token}` } });
      assert.equal((await call()).statusCode, 200);
      await t.gateway.admin.partners.update(changing.login, { status: 'blocked' });
      assert.equal((await call()).statusCode, 401, 'blocking revokes the tokens issued before');
      await t.gateway.admin.partners.update(changing.login, { status: 'active' });
      assert.equal((await call()).statusCode, 401, 'and unblocking does not bring them back');
      token = await bearerFor(changing);
      await t.gateway.admin.partners.update(changing.login, { ipAllowlist: ['192.0.2.0/24'] });
      assert.deepEqual((await call()).json(), { description_status: texts.ipNotAllowed });
      await t.gateway.admin.partners.update(changing.login, { ipAllowlist: ['127.0.0.0/8'], rewardTypes: [] });
      assert.deepEqual((await call()).json(), { description_status: texts.rewardTypeUnavailable });
      await t.gateway.admin.partners.remove(changing.login);
      assert.equal((await call()).statusCode, 401);
    });

    it('succeeds whatever Content-Type and body the client sends', async () => {
      const token = await bearerFor();
      const headers = { authorization: `Bearer ${token}` };
      for (const [type, payload] of [
        ['application/json', ''],
        ['application/json', '{not json'],
        ['text/plain', 'hello'],
        ['application/xml', '<x/>'],
        ['application/x-www-form-urlencoded', 'a=b'],
      ] as const) {
        const response = await t.app.inject({ method: 'POST', url: BANKS, headers: { ...headers, 'content-type': type }, payload });
        assert.equal(response.statusCode, 200, type);
      }
    });

    it('answers any other provider segment with a JSON 404 and other methods with 405', async () => {
      const response = await t.app.inject({ method: 'POST', url: '/partner/other/sbp/banks/' });
      assert.equal(response.statusCode, 404);
      assert.ok(response.json().description_status);
      const get = await t.app.inject({ method: 'GET', url: BANKS });
      assert.equal(get.statusCode, 405);
    });

    it('refuses an expired token', async () => {
      let clock = Date.now();
      const timed = await startTestGateway(backend, { now: () => clock, env: { TOKEN_TTL: '60' } });
      try {
        const who = await timed.addPartner();
        const token = (await timed.app.inject({ method: 'POST', url: '/api/v1/login/', payload: { login: who.login, password: who.password } })).json().access_token;
        const call = () => timed.app.inject({ method: 'POST', url: BANKS, headers: { authorization: `Bearer ${token}` } });
        assert.equal((await call()).statusCode, 200);
        clock += 61_000;
        const expired = await call();
        assert.equal(expired.statusCode, 401);
        assert.equal(expired.headers['www-authenticate'], 'Bearer error="invalid_token"');
      } finally {
        await timed.close();
      }
    });

    it('never writes partnerPassword, the JWE or the bearer token to the log', async () => {
      const jwe = await encryptPassword(partner.password, jwks);
      await t.app.inject({ method: 'POST', url: query({ partnerName: partner.login, partnerPassword: jwe, useAuthByCert: 'Y' }) });
      const token = await bearerFor();
      await t.app.inject({ method: 'POST', url: `${BANKS}?access_token=${token}`, headers: { authorization: `Bearer ${token}` } });
      const logged = t.logs.join('\n');
      assert.ok(logged.includes('partnerPassword=[REDACTED]'));
      for (const secret of [jwe, jwe.split('.')[1]!, token, partner.password]) assert.ok(!logged.includes(secret));
    });
  });
}
