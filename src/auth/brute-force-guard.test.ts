import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { testBackends } from '../../test/support/test-databases.js';
import { encryptPassword } from '../../test/support/encrypt-password.js';
import { startTestGateway, type TestGateway } from '../../test/support/test-gateway.js';
import { createDatabaseThrottleStore, type ThrottleStore } from '../stores/throttle/throttle-store.js';
import { createBruteForceGuard } from './brute-force-guard.js';
import { AppError } from '../errors.js';

const THROTTLED = 'Too many failed attempts; repeat the request later';
const ATTACKER = '203.0.113.66';
const HOME = '198.51.100.10';

for (const backend of testBackends()) {
  describe(`brute-force defence on ${backend.name}`, () => {
    let t: TestGateway;
    let clock = Date.now();
    before(async () => {
      t = await startTestGateway(backend, { now: () => clock, env: { THROTTLE_MAX_FAILURES: '10', THROTTLE_LOCKOUT: '60', THROTTLE_LOCKOUT_MAX: '900', ARGON2_QUEUE: '1000' } });
    });
    after(() => t.close());

    const login = (payload: object, remoteAddress: string) => t.app.inject({ method: 'POST', url: '/api/v1/login/', payload, remoteAddress });

    it('throttles 10 000 distinct wrong passwords from one address, while the partner still logs in from its own', async () => {
      const partner = await t.addPartner({ ipAllowlist: [`${HOME}/32`] });
      const statuses = new Map<number, number>();
      for (let batch = 0; batch < 100; batch++) {
        const responses = await Promise.all(
          Array.from({ length: 100 }, (_, i) => login({ login: partner.login, password: `guess-${batch}-${i}` }, ATTACKER)),
        );
        for (const response of responses) statuses.set(response.statusCode, (statuses.get(response.statusCode) ?? 0) + 1);
      }
      assert.deepEqual([...statuses.keys()].sort(), [401, 429]);
      assert.ok((statuses.get(401) ?? 0) <= 10, `at most THROTTLE_MAX_FAILURES guesses are checked, got ${statuses.get(401)}`);
      assert.ok((statuses.get(429) ?? 0) >= 9_890);
      const locked = await login({ login: partner.login, password: partner.password }, ATTACKER);
      assert.equal(locked.statusCode, 429, 'the locked address is refused even with the right password');
      assert.deepEqual(locked.json(), { description_status: THROTTLED });
      assert.ok(Number(locked.headers['retry-after']) > 0);
      const home = await login({ login: partner.login, password: partner.password }, HOME);
      assert.equal(home.statusCode, 200, 'the partner at its own allowlisted address is not locked out');
    });

    it('locks a login against callers outside its allowlist after failures from many addresses, never against the partner', async () => {
      const partner = await t.addPartner({ ipAllowlist: [`${HOME}/32`] });
      for (let i = 1; i <= 10; i++) assert.equal((await login({ login: partner.login, password: 'wrong' }, `192.0.2.${i}`)).statusCode, 401);
      const fresh = await login({ login: partner.login, password: partner.password }, '192.0.2.200');
      assert.equal(fresh.statusCode, 429, 'a new outside address meets the login lockout');
      assert.equal((await login({ login: partner.login, password: partner.password }, HOME)).statusCode, 200);
    });

    it('makes each further lockout longer', async () => {
      const partner = await t.addPartner();
      const address = '203.0.113.77';
      const lockOnce = async () => {
        for (let i = 0; i < 10; i++) await login({ login: partner.login, password: `wrong-${i}` }, address);
        return Number((await login({ login: partner.login, password: 'wrong' }, address)).headers['retry-after']);
      };
      clock = Date.now();
      const first = await lockOnce();
      assert.equal(first, 60);
      clock += 61_000;
      const second = await lockOnce();
      assert.equal(second, 120);
      clock += 121_000;
      assert.equal((await login({ login: partner.login, password: partner.password }, address)).statusCode, 403, 'the lock has passed (403: outside the loopback allowlist)');
    });

    it('counts garbage bearer tokens and undecryptable JWEs under a key of their own, which never locks a password', async () => {
      const partner = await t.addPartner({ ipAllowlist: ['0.0.0.0/0'] });
      const jwks = (await t.app.inject({ method: 'GET', url: '/.well-known/jwks.json' })).json();
      const address = '203.0.113.88';
      const banks = (query: string, headers: Record<string, string> = {}) => t.app.inject({ method: 'POST', url: `/partner/provider/sbp/banks/${query}`, headers, remoteAddress: address });
      const token = (await login(partner, address)).json().access_token;
      for (let i = 0; i < 5; i++) {
        const garbage = (await encryptPassword(partner.password, jwks, { header: { iat: Math.floor(clock / 1000) } })).replace(/\.([^.]{4})/, '.AAAA');
        assert.equal((await banks(`?partnerName=${partner.login}&partnerPassword=${garbage}&useAuthByCert=Y`)).statusCode, 401);
      }
      for (let i = 0; i < 5; i++) assert.equal((await banks('', { authorization: `Bearer forged.${i}.token` })).statusCode, 401);
      assert.equal((await banks('', { authorization: 'Bearer forged.again.token' })).statusCode, 429, 'more garbage is throttled');
      const jwe = await encryptPassword(partner.password, jwks, { header: { iat: Math.floor(clock / 1000) } });
      assert.equal((await banks(`?partnerName=${partner.login}&partnerPassword=${jwe}&useAuthByCert=Y`)).statusCode, 200, 'the right password is not refused because of garbage');
      assert.equal((await login(partner, address)).statusCode, 200);
      assert.equal((await banks('', { authorization: `Bearer ${token}` })).statusCode, 200, 'a valid token is not a guess and is never throttled');
    });

    it('counts wrong encrypted passwords against the login at that address', async () => {
      const partner = await t.addPartner({ ipAllowlist: ['0.0.0.0/0'] });
      const jwks = (await t.app.inject({ method: 'GET', url: '/.well-known/jwks.json' })).json();
      const address = '203.0.113.89';
      const call = async (password: string) => {
        const jwe = await encryptPassword(password, jwks, { header: { iat: Math.floor(clock / 1000) } });
        return t.app.inject({ method: 'POST', url: `/partner/provider/sbp/banks/?partnerName=${partner.login}&partnerPassword=${jwe}&useAuthByCert=Y`, remoteAddress: address });
      };
      for (let i = 0; i < 10; i++) assert.equal((await call(`wrong-${i}`)).statusCode, 401);
      const locked = await call(partner.password);
      assert.equal(locked.statusCode, 429, 'the right password during the lock gets the same 429');
      assert.ok(Number(locked.headers['retry-after']) > 0);
    });

    it('forgets failures after a success', async () => {
      const partner = await t.addPartner({ ipAllowlist: ['203.0.113.99'] });
      for (let round = 0; round < 3; round++) {
        for (let i = 0; i < 9; i++) assert.equal((await login({ login: partner.login, password: 'wrong' }, '203.0.113.99')).statusCode, 401);
        assert.equal((await login(partner, '203.0.113.99')).statusCode, 200);
      }
    });
  });
}

for (const backend of testBackends()) {
  describe(`password checks waiting for a place on ${backend.name}`, () => {
    it('wakes a waiting check each time this instance gives a place back, without polling the store', { timeout: 60_000 }, async (t) => {
      const handle = await backend.open();
      t.after(() => handle.close());
      const store = createDatabaseThrottleStore(handle.db, { maxFailures: 3, windowMs: 900_000, lockoutMs: 60_000, lockoutMaxMs: 900_000, memoryMs: 3_600_000 });
      let reservations = 0;
      const counted: ThrottleStore = { ...store, reserve: (keys, now) => (reservations++, store.reserve(keys, now)) };
      const guard = createBruteForceGuard(counted, Date.now);
      // With the clock of setTimeout stopped, a waiter can only move on when woken by a place given back.
      t.mock.timers.enable({ apis: ['setTimeout'] });
      const address = `198.18.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
      const results = await Promise.all(Array.from({ length: 20 }, () => guard.attempt(address, undefined, undefined, () => new Promise((resolve) => setImmediate(() => resolve(true))))));
      assert.deepEqual(results, Array(20).fill(true));
      // 20 on arrival (3 granted), then one per place given back to the 17 that waited.
      assert.ok(reservations <= 20 + 17, `${reservations} reservations`);
    });

    it('when failures fill the allowance while checks wait, then every waiting check is refused without waiting for its deadline', { timeout: 60_000 }, async (t) => {
      const handle = await backend.open();
      t.after(() => handle.close());
      const store = createDatabaseThrottleStore(handle.db, { maxFailures: 3, windowMs: 900_000, lockoutMs: 60_000, lockoutMaxMs: 900_000, memoryMs: 3_600_000 });
      const guard = createBruteForceGuard(store, Date.now);
      // With the clock of setTimeout stopped, no waiter can reach its deadline or poll: each must be woken. The
      // real clock, kept aside, ends the test should one never be.
      const [realSetTimeout, realClearTimeout] = [globalThis.setTimeout, globalThis.clearTimeout];
      t.mock.timers.enable({ apis: ['setTimeout'] });
      const address = `198.18.${Math.floor(Math.random() * 250)}.${Math.floor(Math.random() * 250)}`;
      let stuck: NodeJS.Timeout | undefined;
      const results = await Promise.race([
        Promise.allSettled(Array.from({ length: 20 }, () => guard.attempt(address, undefined, undefined, () => new Promise((resolve) => setImmediate(() => resolve(false)))))),
        new Promise<never>((_, reject) => {
          stuck = realSetTimeout(() => reject(new Error('checks still waiting after 20 s: a refused waiter did not wake the next')), 20_000);
        }),
      ]);
      realClearTimeout(stuck);
      assert.deepEqual(results.filter((result) => result.status === 'fulfilled').map((result) => result.value), [false, false, false], 'three wrong passwords evaluated');
      const refused = results.filter((result): result is PromiseRejectedResult => result.status === 'rejected');
      assert.equal(refused.length, 17);
      assert.ok(refused.every((result) => result.reason instanceof AppError && result.reason.status === 429));
    });
  });
}
