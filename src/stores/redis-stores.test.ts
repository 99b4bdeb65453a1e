import assert from 'node:assert/strict';
import { randomBytes, randomInt } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import { encryptPassword } from '../../test/support/encrypt-password.js';
import { siblingHandle, testBackends } from '../../test/support/test-databases.js';
import { startTestGateway, type TestGateway } from '../../test/support/test-gateway.js';
import { waitFor } from '../../test/support/wait-for.js';
import { loadConfig } from '../config.js';
import type { DatabaseHandle } from '../db/database.js';
import type { GatewayEvent } from '../gateway-events.js';
import { createSharedStores, type SharedStores } from './shared-stores.js';
import { throttlePolicyOf } from './throttle/throttle-policy.js';

const url = process.env.TEST_REDIS_URL;
const randomAddress = () => `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;

describe('Redis for counters and the replay cache', { skip: url ? false : 'TEST_REDIS_URL is not set' }, () => {
  let a: TestGateway;
  let b: TestGateway;
  let redis: Redis;
  before(async () => {
    const env = { REDIS_URL: url!, THROTTLE_MAX_FAILURES: '10' };
    // Two gateways on two separate databases: whatever they share, they share through Redis.
    a = await startTestGateway(testBackends()[0]!, { env });
    b = await startTestGateway(testBackends()[0]!, { env });
    redis = new Redis(url!);
    // Each gateway's Redis client connects in the background (a start on a busy machine may give up its 2 s wait
    // and run on the database meanwhile); what these tests share goes through Redis only once both see it up.
    const redisUp = async (t: TestGateway) => ((await t.app.inject({ method: 'GET', url: '/readyz' })).json() as { dependencies: { redis?: { state: string } } }).dependencies.redis?.state === 'up';
    await waitFor(async () => (await redisUp(a)) && (await redisUp(b)), { message: 'both gateways to see Redis up' });
  });
  after(async () => {
    await Promise.all([a.close(), b.close()]);
    redis.disconnect();
  });

  it('counts failures across instances: five on one and five on the other lock the address on both', async () => {
    const attacker = randomAddress();
    const name = `anyone-${randomInt(1e9)}`;
    const login = (t: TestGateway, password: string) => t.app.inject({ method: 'POST', url: '/api/v1/login/', payload: { login: name, password }, remoteAddress: attacker });
    for (let i = 0; i < 5; i++) assert.equal((await login(a, `a${i}`)).statusCode, 401);
    for (let i = 0; i < 5; i++) assert.equal((await login(b, `b${i}`)).statusCode, 401);
    assert.equal((await login(a, 'again')).statusCode, 429);
    assert.equal((await login(b, 'again')).statusCode, 429);
    assert.ok(await redis.exists(`partner-gateway:throttle:addr:${attacker}`));
  });

  it('remembers accepted JWE jtis in Redis, so a replay is refused', async () => {
    const partner = await a.addPartner();
    const jwks = (await a.app.inject({ method: 'GET', url: '/.well-known/jwks.json' })).json();
    const jti = `redis-test-${randomInt(1e9)}`;
    const jwe = await encryptPassword(partner.password, jwks, { header: { jti } });
    const call = () => a.app.inject({ method: 'POST', url: `/partner/provider/sbp/banks/?partnerName=${partner.login}&partnerPassword=${jwe}&useAuthByCert=Y` });
    assert.equal((await call()).statusCode, 200);
    assert.equal(await redis.exists(`partner-gateway:jti:${jti}`), 1);
    const ttl = await redis.pttl(`partner-gateway:jti:${jti}`);
    assert.ok(ttl > 100_000 && ttl <= 121_000, `remembered for the acceptance window, ${ttl} ms`);
    assert.equal((await call()).statusCode, 401);
  });
});

describe('Redis unreachable', () => {
  it('falls back to the database without an error: logins, throttling and replay protection go on', async () => {
    const t = await startTestGateway(testBackends()[0]!, { env: { REDIS_URL: 'redis://127.0.0.1:1', THROTTLE_MAX_FAILURES: '3' } });
    try {
      const partner = await t.addPartner();
      assert.equal((await t.app.inject({ method: 'POST', url: '/api/v1/login/', payload: partner })).statusCode, 200);
      const jwks = (await t.app.inject({ method: 'GET', url: '/.well-known/jwks.json' })).json();
      const url = `/partner/provider/sbp/banks/?partnerName=${partner.login}&partnerPassword=${await encryptPassword(partner.password, jwks)}&useAuthByCert=Y`;
      assert.equal((await t.app.inject({ method: 'POST', url })).statusCode, 200);
      assert.equal((await t.app.inject({ method: 'POST', url })).statusCode, 401, 'the replay is still refused, by the database');
      const attacker = randomAddress();
      for (let i = 0; i < 3; i++) {
        assert.equal((await t.app.inject({ method: 'POST', url: '/api/v1/login/', payload: { login: partner.login, password: `x${i}` }, remoteAddress: attacker })).statusCode, 401);
      }
      assert.equal((await t.app.inject({ method: 'POST', url: '/api/v1/login/', payload: partner, remoteAddress: attacker })).statusCode, 429);
    } finally {
      await t.close();
    }
  });
});

for (const backend of testBackends()) {
  describe(`a Redis that lost its keys, as a restart without persistence does (${backend.name})`, { skip: url ? false : 'TEST_REDIS_URL is not set' }, () => {
    const prefix = `lost-${randomBytes(4).toString('hex')}:`;
    const config = loadConfig({ NODE_ENV: 'test', REDIS_URL: url, REDIS_KEY_PREFIX: prefix, THROTTLE_MAX_FAILURES: '3', THROTTLE_LOCKOUT: '600' });
    const policy = throttlePolicyOf(config);
    let handle: DatabaseHandle;
    let sibling: DatabaseHandle;
    let redis: Redis;
    const stores: SharedStores[] = [];
    const events: GatewayEvent[] = [];
    before(async () => {
      handle = await backend.open();
      sibling = await siblingHandle(handle);
      redis = new Redis(url!);
    });
    after(async () => {
      await Promise.all(stores.map((store) => store.close(1_000)));
      redis.disconnect();
      await sibling.close();
      await handle.close();
    });

    /** One instance's stores (two share the database and Redis, as two gateways do). */
    async function instance(db: DatabaseHandle): Promise<SharedStores> {
      const store = createSharedStores(config, db, db.changeFeed(), policy, { now: Date.now, events: (event) => events.push(event), acceptanceWindowMs: 361_000 });
      stores.push(store);
      // Ready once a claim has been answered (the start's check of Redis is done before it).
      await store.jtis.spend(`warm-${randomInt(1e9)}`, { issuedAt: Math.floor(Date.now() / 1000), rememberUntil: new Date(Date.now() + 60_000) });
      return store;
    }
    const loseEverything = async () => {
      const keys = await redis.keys(`${prefix}*`);
      if (keys.length > 0) await redis.del(...keys);
    };
    const credential = (issuedAt: number) => ({ issuedAt, rememberUntil: new Date(Date.now() + 120_000) });

    it('when the keys are gone, then a jti spent before is refused as state_lost on every instance, the loss is recorded once, and credentials issued after it are spent once', async () => {
      const [one, two] = [await instance(handle), await instance(sibling)];
      const issuedAt = Math.floor(Date.now() / 1000);
      assert.equal(await one.jtis.spend('dpop:spent-before', credential(issuedAt)), 'spent');
      await loseEverything();
      assert.equal(await two.jtis.spend('dpop:spent-before', credential(issuedAt)), 'state_lost');
      assert.equal(await one.jtis.spend('dpop:spent-before', credential(issuedAt)), 'state_lost');
      const losses = events.filter((event) => event.type === 'replay_state_lost');
      assert.equal(losses.length, 1, 'one loss, recorded by whichever instance saw it first');
      assert.equal(one.replayNotBefore(), two.replayNotBefore());
      const fresh = credential(Math.ceil(one.replayNotBefore() / 1000));
      assert.equal(await one.jtis.spend('dpop:issued-after', fresh), 'spent');
      assert.equal(await two.jtis.spend('dpop:issued-after', fresh), 'replayed');
    });

    it('when the keys are gone, then a lockout set before still holds: the database answers until the loss is recorded, and Redis holds it again after', async () => {
      const store = await instance(handle);
      const key = `addr:10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
      for (let i = 0; i < 3; i++) await store.throttle.recordFailure([key], Date.now());
      assert.ok((await store.throttle.lockedFor([key], Date.now())) > 0, 'locked');
      await loseEverything();
      assert.equal(await redis.exists(`${prefix}throttle:${key}`), 0);
      assert.ok((await store.throttle.lockedFor([key], Date.now())) > 500_000, 'still locked, from the database');
      const reservation = await store.throttle.reserve([key], Date.now());
      assert.equal(reservation.granted, false);
      await waitFor(() => redis.exists(`${prefix}throttle:${key}`), { message: 'the lockout back in Redis' });
      assert.ok((await store.throttle.lockedFor([key], Date.now())) > 500_000, 'locked, from Redis again');
    });
  });
}
