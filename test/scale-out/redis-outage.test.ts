import assert from 'node:assert/strict';
import { randomBytes, randomInt } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { InjectOptions } from 'fastify';
import { Redis } from 'ioredis';
import { encryptPassword } from '../support/encrypt-password.js';
import { createRedisServer, redisServerUnavailable, type RedisServer } from '../support/redis-server.js';
import { testBackends } from '../support/test-databases.js';
import { startTestGateway, type TestGateway } from '../support/test-gateway.js';
import { waitFor } from '../support/wait-for.js';

const BANKS = '/partner/provider/sbp/banks/';
const LOGIN = '/api/v1/login/';

for (const backend of testBackends()) {
  describe(`the gateway through a Redis outage (${backend.name})`, { skip: redisServerUnavailable() ?? false }, () => {
    let server: RedisServer;
    let t: TestGateway;
    let watcher: Redis;
    let partner: { login: string; password: string };
    const prefix = `outage-${randomBytes(4).toString('hex')}:`;
    /** Every status the gateway answered in this suite: none may be a 5xx. */
    const statuses: number[] = [];

    /**
     * Above the four refused JWEs this suite sends from the loopback address: whether the gateway counts the last
     * two in memory or in the restarted Redis depends on when its client reconnects, and neither may lock it.
     */
    const maxFailures = 5;

    before(async () => {
      server = await createRedisServer();
      t = await startTestGateway(backend, { env: { REDIS_URL: server.url, REDIS_KEY_PREFIX: prefix, THROTTLE_MAX_FAILURES: String(maxFailures) } });
      partner = await t.addPartner();
      watcher = new Redis(server.url, { maxRetriesPerRequest: 0, enableOfflineQueue: false });
      watcher.on('error', () => {});
    });
    after(async () => {
      watcher?.disconnect();
      await t?.close();
      await server?.kill();
    });

    const call = async (options: InjectOptions) => {
      const response = await t.app.inject(options);
      statuses.push(response.statusCode);
      return response;
    };
    const jwe = async () => encryptPassword(partner.password, (await t.app.inject({ method: 'GET', url: '/.well-known/jwks.json' })).json());
    const withJwe = (token: string) => call({ method: 'POST', url: `${BANKS}?partnerName=${partner.login}&partnerPassword=${token}&useAuthByCert=Y` });
    const jtisInRedis = async () => (await watcher.keys(`${prefix}jti:*`)).length;
    const restartRedis = async () => {
      await server.start();
      await waitFor(async () => watcher.ping().then(() => true, () => false), { message: 'Redis to answer again' });
    };
    /** True once a fresh JWE's jti lands in Redis again: the gateway has reconnected. */
    const gatewayUsesRedis = async () => {
      const before = await jtisInRedis();
      assert.equal((await withJwe(await jwe())).statusCode, 200);
      return (await jtisInRedis()) > before;
    };

    it('keeps answering without a 5xx while Redis is down: logins, bearer and encrypted-password banks, replays refused, lockouts counted', async () => {
      const before = await jwe();
      assert.equal((await withJwe(before)).statusCode, 200);
      assert.equal(await jtisInRedis(), 1, 'the jti went to Redis');
      await server.kill();

      assert.equal((await withJwe(before)).statusCode, 401, 'a JWE accepted through Redis is still spent');
      const during = await jwe();
      assert.equal((await withJwe(during)).statusCode, 200);
      assert.equal((await withJwe(during)).statusCode, 401);
      const login = await call({ method: 'POST', url: LOGIN, payload: partner });
      assert.equal(login.statusCode, 200);
      assert.equal((await call({ method: 'POST', url: BANKS, headers: { authorization: `Bearer ${login.json().access_token}` } })).statusCode, 200);
      const attacker = `10.${randomInt(256)}.${randomInt(256)}.${randomInt(1, 255)}`;
      for (let i = 0; i < maxFailures; i++) {
        assert.equal((await call({ method: 'POST', url: LOGIN, payload: { login: partner.login, password: `wrong ${i}` }, remoteAddress: attacker })).statusCode, 401);
      }
      assert.equal((await call({ method: 'POST', url: LOGIN, payload: partner, remoteAddress: attacker })).statusCode, 429);

      await restartRedis();
      assert.equal(await jtisInRedis(), 0, 'Redis came back empty');
      assert.equal((await withJwe(before)).statusCode, 401, 'spent before the outage');
      assert.equal((await withJwe(during)).statusCode, 401, 'spent during the outage');
      await waitFor(gatewayUsesRedis, { message: 'the gateway to claim in Redis again' });
      assert.deepEqual(statuses.filter((status) => status >= 500), []);
    });

    it('refuses a JWE spent before Redis restarted empty, even when no call saw Redis down', async () => {
      // A gateway of its own, which has never fallen back (the first test's gateway is still double-checking).
      await t.close();
      t = await startTestGateway(backend, { env: { REDIS_URL: server.url, REDIS_KEY_PREFIX: prefix } });
      partner = await t.addPartner();
      const spent = await jwe();
      assert.equal((await withJwe(spent)).statusCode, 200);
      await server.kill();
      await restartRedis();
      // No call meanwhile: the gateway learns of the restart only from its connection coming back. Its client
      // is ready once Redis has answered its ready check (INFO), the last command of its connection.
      await waitFor(async () => / cmd=info( |$)/m.test(String(await watcher.call('CLIENT', 'LIST'))), { message: "the gateway's ready check" });
      // Its answer was written before CLIENT LIST ran: once one more round trip of ours is back, this process
      // has read the gateway's socket too (libuv polls every readable socket each turn), so 'ready' has fired.
      await watcher.ping();
      assert.equal((await withJwe(spent)).statusCode, 401);
      // Redis's loss is found there (its sentinel is gone): a JWE issued in that very second is refused too, as
      // its whole-second iat cannot tell before the loss from after it; from the next second on, one is accepted.
      await waitFor(gatewayUsesRedis, { message: 'a fresh JWE accepted through Redis' });
      assert.deepEqual(statuses.filter((status) => status >= 500), []);
    });
  });
}
