import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createRedisServer, redisServerUnavailable, type RedisServer } from '../support/redis-server.js';
import { sample } from '../support/prometheus-sample.js';
import { testBackends } from '../support/test-databases.js';
import { startTestGateway, TEST_ADMIN_TOKEN, type TestGateway } from '../support/test-gateway.js';
import { waitFor } from '../support/wait-for.js';

const BANKS = '/partner/provider/sbp/banks/';

for (const backend of testBackends()) {
  describe(`readiness and the dependency gauge through a Redis outage (${backend.name})`, { skip: redisServerUnavailable() ?? false }, () => {
    let server: RedisServer;
    let t: TestGateway;

    before(async () => {
      server = await createRedisServer();
      t = await startTestGateway(backend, { env: { REDIS_URL: server.url, REDIS_KEY_PREFIX: `readiness-${process.pid}:` } });
    });
    after(async () => {
      await t?.close();
      await server?.kill();
    });

    const readyz = async () => {
      const response = await t.app.inject({ method: 'GET', url: '/readyz' });
      return { status: response.statusCode, body: response.json() as unknown };
    };
    const scrape = async () => {
      const response = await t.admin.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } });
      assert.equal(response.statusCode, 200);
      return response.body;
    };
    const up = async (dependency: string) => sample(await scrape(), 'partner_gateway_dependency_up', { dependency });

    it('when Redis goes away, then /readyz says degraded with 200 and the gauge 0, liveness and calls are unaffected; when it returns, ready and 1 again', async () => {
      await waitFor(async () => (await readyz()).status === 200 && (await up('redis')) === 1, { message: 'Redis to be seen up at start' });
      assert.deepEqual(await readyz(), { status: 200, body: { status: 'ready', dependencies: { database: { state: 'up' }, redis: { state: 'up' } } } });
      const partner = await t.addPartner();
      const token = (await t.app.inject({ method: 'POST', url: '/api/v1/login/', payload: partner })).json().access_token as string;
      const commands = sample(await scrape(), 'partner_gateway_redis_command_duration_seconds_count', { command: 'eval', outcome: 'ok' }) ?? 0;
      assert.ok(commands > 0, 'the login\'s throttle scripts were timed');

      await server.kill();
      assert.deepEqual(await readyz(), { status: 200, body: { status: 'degraded', dependencies: { database: { state: 'up' }, redis: { state: 'down' } } } });
      const text = await scrape();
      assert.equal(sample(text, 'partner_gateway_dependency_up', { dependency: 'redis' }), 0);
      assert.equal(sample(text, 'partner_gateway_dependency_up', { dependency: 'database' }), 1);
      assert.equal((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode, 200);
      assert.equal((await t.app.inject({ method: 'POST', url: '/api/v1/login/', payload: partner })).statusCode, 200, 'logins go on from the database');
      assert.equal((await t.app.inject({ method: 'POST', url: BANKS, headers: { authorization: `Bearer ${token}` } })).statusCode, 200);

      await server.start();
      await waitFor(async () => (await readyz()).status === 200 && ((await readyz()).body as { status: string }).status === 'ready', { timeout: 15_000, message: 'readiness to say ready once Redis is back' });
      assert.equal(await up('redis'), 1);
    });
  });
}
