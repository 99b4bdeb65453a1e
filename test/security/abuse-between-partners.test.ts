import assert from 'node:assert/strict';
import { randomBytes, randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { JWK } from 'jose';
import { texts } from '../../src/errors.js';
import { argon2Verifications } from '../../src/partners/password-hasher.js';
import { encryptPassword } from '../support/encrypt-password.js';
import { testBackends } from '../support/test-databases.js';
import { startTestGateway, TEST_ADMIN_TOKEN, type TestGateway } from '../support/test-gateway.js';

// The findings of the security review of issue 11, each reproduced over HTTP as it was found and shown
// closed, on every backend (PGlite; PostgreSQL with TEST_DATABASE_URL; each with Redis too with TEST_REDIS_URL).

const BANKS = '/partner/provider/sbp/banks/';
const THROTTLED = 'Too many failed attempts; repeat the request later';
const MAX_FAILURES = 10;
const ARGON2_CONCURRENCY = 2;
const redisUrl = process.env.TEST_REDIS_URL;

const variants = testBackends().flatMap((backend) => [
  { name: backend.name, backend, env: {} as Record<string, string> },
  ...(redisUrl ? [{ name: `${backend.name} with Redis`, backend, env: { REDIS_URL: redisUrl, REDIS_KEY_PREFIX: `test-${randomBytes(4).toString('hex')}:` } }] : []),
]);

/** A fresh /24 per test, so that the tests' counters never meet. */
let subnet = 0;
const nextSubnet = () => `198.51.${++subnet}`;

for (const variant of variants) {
  describe(`abuse between partners and concurrency (issue 11) on ${variant.name}`, () => {
    let t: TestGateway;
    let jwks: { keys: JWK[] };
    before(async () => {
      t = await startTestGateway(variant.backend, {
        env: {
          ...variant.env,
          THROTTLE_MAX_FAILURES: String(MAX_FAILURES),
          ARGON2_CONCURRENCY: String(ARGON2_CONCURRENCY),
          ARGON2_QUEUE: '1000',
          TRUST_PROXY: '127.0.0.1',
        },
      });
      jwks = (await t.app.inject({ method: 'GET', url: '/.well-known/jwks.json' })).json();
    });
    after(() => t.close());

    const login = (payload: object, remoteAddress: string) => t.app.inject({ method: 'POST', url: '/api/v1/login/', payload, remoteAddress });
    const banksWithPassword = async (partner: { login: string; password: string }, remoteAddress: string) =>
      t.app.inject({ method: 'POST', url: `${BANKS}?partnerName=${partner.login}&partnerPassword=${await encryptPassword(partner.password, jwks)}&useAuthByCert=Y`, remoteAddress });
    const banksWithToken = (token: string, remoteAddress: string) => t.app.inject({ method: 'POST', url: BANKS, headers: { authorization: `Bearer ${token}` }, remoteAddress });

    it('finding 1: garbage bearer tokens from a shared address lock out nobody but more garbage', async () => {
      const shared = `${nextSubnet()}.3`;
      const b = await t.addPartner({ ipAllowlist: [shared] });
      for (let i = 0; i < MAX_FAILURES; i++) assert.equal((await banksWithToken(`garbage-${i}`, shared)).statusCode, 401);
      assert.equal((await banksWithToken('garbage-again', shared)).statusCode, 429, 'garbage has a counter of its own');
      assert.equal((await login(b, shared)).statusCode, 200, 'B logs in with its right password');
      assert.equal((await banksWithPassword(b, shared)).statusCode, 200, 'and calls banks with its encrypted password');
    });

    it("finding 1: wrong passwords for partner A from a shared address do not lock partner B out there", async () => {
      const shared = `${nextSubnet()}.3`;
      const a = await t.addPartner({ ipAllowlist: [shared] });
      const b = await t.addPartner({ ipAllowlist: [shared] });
      for (let i = 0; i < MAX_FAILURES; i++) assert.equal((await login({ login: a.login, password: `wrong-${i}` }, shared)).statusCode, 401);
      assert.equal((await login(b, shared)).statusCode, 200);
      assert.equal((await banksWithPassword(b, shared)).statusCode, 200);
      // Outsiders guessing A, and unknown logins, from elsewhere: A at home is not concerned either.
      const outsider = `${nextSubnet()}.9`;
      for (let i = 0; i < MAX_FAILURES; i++) await login({ login: i % 2 ? a.login : `nobody-${i}`, password: 'wrong' }, outsider);
      assert.equal((await login(b, shared)).statusCode, 200);
    });

    it('finding 2: a co-hosted neighbour gets at most THROTTLE_MAX_FAILURES guesses at a partner, however often it logs in itself', async () => {
      const shared = `${nextSubnet()}.7`;
      const guesser = await t.addPartner({ ipAllowlist: [shared] });
      const target = await t.addPartner({ ipAllowlist: [shared] });
      const targetToken = (await login(target, shared)).json().access_token as string;
      const statuses: number[] = [];
      for (let i = 0; i < 60; i++) {
        statuses.push((await login({ login: target.login, password: `guess-${i}` }, shared)).statusCode);
        if (i % 9 === 8) assert.equal((await login(guesser, shared)).statusCode, 200, "the guesser's own logins keep working");
      }
      assert.equal(statuses.filter((status) => status === 401).length, MAX_FAILURES, `evaluated guesses: ${statuses.join(',')}`);
      assert.equal(statuses.filter((status) => status === 429).length, 60 - MAX_FAILURES);
      // The documented trade-off: the target's password logins at that address wait for the lock to pass; its
      // valid tokens keep working.
      assert.equal((await login(target, shared)).statusCode, 429);
      assert.equal((await banksWithToken(targetToken, shared)).statusCode, 200);
    });

    it('finding 2: a success that is not a full success (blocked, or outside the allowlist) resets nothing', async () => {
      const outside = `${nextSubnet()}.20`;
      const blocked = await t.addPartner({ ipAllowlist: [outside], status: 'blocked' });
      const elsewhere = await t.addPartner({ ipAllowlist: ['192.0.2.1'] });
      for (let i = 0; i < MAX_FAILURES - 2; i++) assert.equal((await login({ login: `nobody-${randomUUID()}`, password: 'x' }, outside)).statusCode, 401);
      assert.equal((await login(blocked, outside)).statusCode, 403, 'blocked: right password, refused');
      assert.equal((await login(elsewhere, outside)).statusCode, 403, 'outside its allowlist: right password, refused');
      assert.equal((await login({ login: `nobody-${randomUUID()}`, password: 'x' }, outside)).statusCode, 401);
      assert.equal((await login({ login: `nobody-${randomUUID()}`, password: 'x' }, outside)).statusCode, 401, 'the tenth failure');
      assert.equal((await login({ login: `nobody-${randomUUID()}`, password: 'x' }, outside)).statusCode, 429, 'nothing was reset');
    });

    it('finding 3: 40 concurrent guesses evaluate at most THROTTLE_MAX_FAILURES + ARGON2_CONCURRENCY passwords; during the lock the right password gets the same 429, unhashed', async () => {
      const target = await t.addPartner({ ipAllowlist: ['192.0.2.2'] });
      const outsider = `${nextSubnet()}.40`;
      const before = argon2Verifications();
      const responses = await Promise.all(Array.from({ length: 40 }, (_, i) => login({ login: target.login, password: `guess-${i}` }, outsider)));
      const evaluated = argon2Verifications() - before;
      assert.ok(evaluated <= MAX_FAILURES + ARGON2_CONCURRENCY, `${evaluated} argon2 verifications`);
      assert.equal(responses.filter((response) => response.statusCode === 401).length, evaluated);
      const locked = argon2Verifications();
      const right = await login(target, outsider);
      const wrong = await login({ login: target.login, password: 'wrong' }, outsider);
      assert.equal(argon2Verifications() - locked, 0, 'nothing hashed during the lock');
      for (const response of [right, wrong]) {
        assert.equal(response.statusCode, 429);
        assert.deepEqual(response.json(), { description_status: THROTTLED });
        assert.ok(Number(response.headers['retry-after']) > 0);
      }
      assert.equal(right.headers['retry-after'], wrong.headers['retry-after']);
    });

    it('finding 3: a neighbour inside the allowlist gets no more out of concurrency either', async () => {
      const shared = `${nextSubnet()}.41`;
      const target = await t.addPartner({ ipAllowlist: [shared] });
      const before = argon2Verifications();
      await Promise.all(Array.from({ length: 40 }, (_, i) => login({ login: target.login, password: `guess-${i}` }, shared)));
      assert.ok(argon2Verifications() - before <= MAX_FAILURES + ARGON2_CONCURRENCY);
      const jwe = await banksWithPassword(target, shared);
      assert.equal(jwe.statusCode, 429, 'the encrypted right password too');
    });

    it("a partner's own burst of right passwords is not refused: checks beyond the allowance wait for a place", async () => {
      const home = `${nextSubnet()}.50`;
      const partner = await t.addPartner({ ipAllowlist: [home] });
      const logins = await Promise.all(Array.from({ length: 2 * MAX_FAILURES }, () => login(partner, home)));
      assert.deepEqual([...new Set(logins.map((response) => response.statusCode))], [200]);
      const calls = await Promise.all(Array.from({ length: 3 * MAX_FAILURES }, () => banksWithPassword(partner, home)));
      assert.deepEqual([...new Set(calls.map((response) => response.statusCode))], [200]);
    });

    it('finding 5: a jti that is not 1-128 printable ASCII is refused with 401, the reason logged', async () => {
      const partner = await t.addPartner();
      for (const jti of ['a\0b', '', 'x'.repeat(129), 'tab\there', 'é']) {
        const jwe = await encryptPassword(partner.password, jwks, { header: { jti } });
        const response = await t.app.inject({ method: 'POST', url: `${BANKS}?partnerName=${partner.login}&partnerPassword=${jwe}&useAuthByCert=Y` });
        assert.equal(response.statusCode, 401, JSON.stringify(jti));
        assert.deepEqual(response.json(), { description_status: texts.unauthorized });
      }
      assert.ok(t.logs.some((line) => line.includes('"invalid_jti"')), 'the reason is in the log');
    });

    it('finding 9: IPv6 clients are counted per /64', async () => {
      const prefix = `2001:db8:${(++subnet).toString(16)}:1`;
      for (let i = 1; i <= MAX_FAILURES; i++) assert.equal((await login({ login: `nobody-${i}`, password: 'x' }, `${prefix}::${i.toString(16)}`)).statusCode, 401);
      assert.equal((await login({ login: 'nobody', password: 'x' }, `${prefix}:ffff:ffff:ffff:ffff`)).statusCode, 429, 'another address of the same /64');
      assert.equal((await login({ login: 'nobody', password: 'x' }, `2001:db8:${subnet.toString(16)}:2::1`)).statusCode, 401, 'the next /64 is another client');
    });

    it('finding 9: ::a.b.c.d and zone ids are refused from X-Forwarded-For and in allowlists; IPv4-mapped counts as IPv4', async () => {
      const partner = await t.addPartner({ ipAllowlist: ['10.0.0.0/8'] });
      const via = (forwarded: string) => t.app.inject({ method: 'POST', url: '/api/v1/login/', payload: partner, remoteAddress: '127.0.0.1', headers: { 'x-forwarded-for': forwarded } });
      for (const forwarded of ['::10.0.0.1', 'fe80::1%eth0', '010.0.0.1']) {
        const response = await via(forwarded);
        assert.equal(response.statusCode, 400, forwarded);
        assert.equal(typeof response.json().description_status, 'string');
      }
      assert.equal((await via('10.0.0.1')).statusCode, 200);
      assert.equal((await via('::ffff:10.0.0.1')).statusCode, 200, 'IPv4-mapped is the IPv4 address');
      for (const entry of ['::10.0.0.1', 'fe80::1%1', 'fe80::%eth0/64']) {
        const response = await t.admin.inject({
          method: 'POST',
          url: '/admin/v1/partners',
          headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
          payload: { login: `p-${randomUUID()}`, password: 'a password long enough', ipAllowlist: [entry], rewardTypes: ['sbp'] },
        });
        assert.equal(response.statusCode, 422, entry);
      }
    });
  });
}
