import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import { encryptPassword } from '../../test/support/encrypt-password.js';
import { testBackends } from '../../test/support/test-databases.js';
import { startTestGateway, type TestGateway } from '../../test/support/test-gateway.js';

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
