import assert from 'node:assert/strict';
import { randomBytes, randomInt } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { encryptPassword } from '../support/encrypt-password.js';
import { startGatewayProcesses, stopGatewayProcess, type GatewayProcess } from '../support/gateway-process.js';
import { waitFor } from '../support/wait-for.js';

const url = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL;
const ADMIN_TOKEN = randomBytes(24).toString('hex');
const MASTER_KEY = randomBytes(32).toString('hex');

const variants = [{ name: 'PostgreSQL alone', env: {} as Record<string, string> }];
if (redisUrl) variants.push({ name: 'PostgreSQL and Redis', env: { REDIS_URL: redisUrl, REDIS_KEY_PREFIX: `test-${randomBytes(4).toString('hex')}:` } });

for (const variant of variants) {
  describe(`two gateway processes on one database (${variant.name})`, { skip: url ? false : 'TEST_DATABASE_URL is not set' }, () => {
    const schema = `scale_${randomBytes(5).toString('hex')}`;
    let a: GatewayProcess;
    let b: GatewayProcess;
    const partner = { login: `shared-${randomInt(1e9)}`, password: 'a shared partner password' };
    before(async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(`create schema ${schema}`);
      await client.end();
      const databaseUrl = `${url}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
      // One public address for both, as behind a load balancer: it is the tokens' issuer (PUBLIC_URL, required in
      // production), and the default (each process's own loopback port) would make each refuse the other's tokens.
      const env = { DATABASE_URL: databaseUrl, ADMIN_TOKEN, MASTER_KEY, THROTTLE_MAX_FAILURES: '10', PUBLIC_URL: 'http://gateway.test', ...variant.env };
      [a, b] = (await startGatewayProcesses(2, env)) as [GatewayProcess, GatewayProcess];
      const created = await fetch(`${a.admin}/admin/v1/partners`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ ...partner, ipAllowlist: ['127.0.0.1'], rewardTypes: ['sbp'] }),
      });
      assert.equal(created.status, 201);
    });
    after(async () => {
      await Promise.all([a, b].filter(Boolean).map((instance) => stopGatewayProcess(instance)));
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(`drop schema ${schema} cascade`);
      await client.end();
    });

    const login = async (instance: GatewayProcess) => {
      const response = await fetch(`${instance.base}/api/v1/login/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(partner) });
      assert.equal(response.status, 200);
      return (await response.json()) as { access_token: string };
    };
    const banks = (instance: GatewayProcess, token: string) =>
      fetch(`${instance.base}/partner/provider/sbp/banks/`, { method: 'POST', headers: { authorization: `Bearer ${token}` } }).then((r) => r.status);

    it('refuses on B a JWE already used on A', async () => {
      const jwks = await (await fetch(`${a.base}/.well-known/jwks.json`)).json();
      const jwe = await encryptPassword(partner.password, jwks as never);
      const path = `/partner/provider/sbp/banks/?partnerName=${partner.login}&partnerPassword=${jwe}&useAuthByCert=Y`;
      assert.equal((await fetch(`${a.base}${path}`, { method: 'POST' })).status, 200);
      assert.equal((await fetch(`${b.base}${path}`, { method: 'POST' })).status, 401);
    });

    it('refuses on B, within 1 s, a token logged out on A', async () => {
      const { access_token: token } = await login(a);
      assert.equal(await banks(b, token), 200, 'B knows the session (and caches it)');
      assert.equal((await fetch(`${a.base}/api/v1/logout/`, { method: 'POST', headers: { authorization: `Bearer ${token}` } })).status, 204);
      await waitFor(async () => (await banks(b, token)) === 401, { message: 'the other instance to refuse the token' });
    });

    it("refuses on B, within 1 s, a partner blocked through A's admin API", async () => {
      const { access_token: token } = await login(b);
      assert.equal(await banks(b, token), 200);
      const patch = (status: string) =>
        fetch(`${a.admin}/admin/v1/partners/${partner.login}`, { method: 'PATCH', headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify({ status }) });
      assert.equal((await patch('blocked')).status, 200);
      await waitFor(async () => (await banks(b, token)) !== 200, { message: 'the other instance to refuse the token' });
      const refused = await fetch(`${b.base}/api/v1/login/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(partner) });
      assert.equal(refused.status, 403);
      assert.equal((await patch('active')).status, 200);
      await waitFor(async () => (await fetch(`${b.base}/api/v1/login/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(partner) })).status === 200);
    });

    it('counts failed logins across both instances', async () => {
      const name = `nobody-${randomInt(1e9)}`;
      const fail = (instance: GatewayProcess) =>
        fetch(`${instance.base}/api/v1/login/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ login: name, password: 'wrong' }) }).then((r) => r.status);
      for (let i = 0; i < 5; i++) assert.equal(await fail(a), 401);
      for (let i = 0; i < 5; i++) assert.equal(await fail(b), 401);
      assert.equal(await fail(a), 429);
      assert.equal(await fail(b), 429);
    });
  });
}
