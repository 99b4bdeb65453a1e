import assert from 'node:assert/strict';
import { randomBytes, randomInt } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { startGatewayProcess, startGatewayProcesses, stopGatewayProcess, type GatewayProcess } from '../support/gateway-process.js';
import { startRetryingBalancer, type RetryingBalancer } from '../support/retrying-balancer.js';
import { waitFor } from '../support/wait-for.js';

const url = process.env.TEST_DATABASE_URL;
const ADMIN_TOKEN = randomBytes(24).toString('hex');
const MASTER_KEY = randomBytes(32).toString('hex');
const BANKS = '/partner/provider/sbp/banks/';
const LOGIN = '/api/v1/login/';
/** Concurrent clients calling through the balancer all along. */
const CLIENTS = 8;

describe('rolling restart of two gateway processes behind a retrying balancer', { skip: url ? false : 'TEST_DATABASE_URL is not set' }, () => {
  const schema = `rolling_${randomBytes(5).toString('hex')}`;
  const databaseUrl = `${url}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  // One public address for all, as behind the balancer: it is the tokens' issuer (PUBLIC_URL), so that a token
  // issued by one instance is accepted by the others.
  const env = { DATABASE_URL: databaseUrl, ADMIN_TOKEN, MASTER_KEY, PUBLIC_URL: 'http://gateway.test' };
  const partner = { login: `rolling-${randomInt(1e9)}`, password: 'a partner password for the restart' };
  let instances: GatewayProcess[] = [];
  let balancer: RetryingBalancer;
  let database: pg.Client;

  before(async () => {
    database = new pg.Client({ connectionString: url });
    await database.connect();
    await database.query(`create schema ${schema}`);
    instances = await startGatewayProcesses(2, env);
    balancer = await startRetryingBalancer(instances.map((instance) => instance.base));
    const created = await fetch(`${instances[0]!.admin}/admin/v1/partners`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ ...partner, ipAllowlist: ['127.0.0.1'], rewardTypes: ['sbp'] }),
    });
    assert.equal(created.status, 201);
  });
  after(async () => {
    await balancer?.close();
    await Promise.all(instances.map((instance) => stopGatewayProcess(instance)));
    await database.query(`drop schema ${schema} cascade`);
    await database.end();
  });

  it('drops no request and loses no audit entry while each instance in turn is stopped with SIGTERM and started again', async (t) => {
    /** What the clients were answered, by action and status. */
    const answered = new Map<string, number>();
    const count = (key: string) => answered.set(key, (answered.get(key) ?? 0) + 1);
    const login = async () => {
      const response = await fetch(`${balancer.url}${LOGIN}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(partner) });
      count(`login ${response.status}`);
      return response.ok ? ((await response.json()) as { access_token: string }).access_token : undefined;
    };
    let running = true;
    const client = async () => {
      let token = await login();
      for (let call = 1; running; call++) {
        if (call % 5 === 0 || token === undefined) {
          token = (await login()) ?? token;
          continue;
        }
        const response = await fetch(`${balancer.url}${BANKS}`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
        await response.arrayBuffer();
        count(`banks ${response.status}`);
      }
    };
    const load = Promise.all(Array.from({ length: CLIENTS }, client));
    /** Lets the load run until the clients have been answered `calls` more times (rather than for a while). */
    const served = (calls: number) => {
      const total = () => [...answered.values()].reduce((sum, n) => sum + n, 0);
      const until = total() + calls;
      return waitFor(() => total() >= until, { timeout: 60_000, message: () => `${calls} more answers (${JSON.stringify(Object.fromEntries(answered))})` });
    };

    const exitCodes: Array<number | null> = [];
    await served(60);
    for (const index of [0, 1]) {
      const stopping = instances[index]!;
      exitCodes.push(await stopGatewayProcess(stopping, 'SIGTERM'));
      // One instance alone answers meanwhile.
      await served(20);
      instances[index] = await startGatewayProcess(env, { port: stopping.port, adminPort: stopping.adminPort });
      await served(60);
    }
    running = false;
    await load;

    // Stopping both drains their audit queues; then every answered call must be in the trail exactly once
    // (an aggregated entry of bearer banks calls counts the calls it stands for).
    await Promise.all(instances.map((instance) => stopGatewayProcess(instance)));
    const rows = await database.query<{ action: string; status: number; n: number }>(
      `select action, status, sum(count)::int as n from ${schema}.audit_log where partner = $1 group by action, status`,
      [partner.login],
    );
    const audited = new Map(rows.rows.map((row) => [`${row.action} ${row.status}`, row.n]));
    // A request a stopping instance refused (503 shutting_down, before its partner is known) is audited there.
    const refused = await database.query<{ n: number }>(`select count(*)::int as n from ${schema}.audit_log where status = 503`);
    t.diagnostic(`answered ${JSON.stringify(Object.fromEntries(answered))}; balancer ${JSON.stringify(balancer.counts)}; audited ${JSON.stringify(Object.fromEntries(audited))}, 503 ${refused.rows[0]!.n}`);

    assert.deepEqual(exitCodes, [0, 0], 'both instances shut down cleanly');
    assert.equal(balancer.counts.failed, 0, 'no request ran out of instances');
    assert.deepEqual([...answered.keys()].filter((key) => !key.endsWith(' 200')), [], 'every client was answered 200');
    assert.ok((answered.get('banks 200') ?? 0) > 100 && (answered.get('login 200') ?? 0) > 20, 'the load ran through both restarts');
    assert.equal(audited.get('banks 200'), answered.get('banks 200'), 'one banks audit entry per answered call');
    assert.equal(audited.get('login 200'), answered.get('login 200'), 'one login audit entry per answered login');
    assert.equal(refused.rows[0]!.n, balancer.counts.retried503, 'every 503 the balancer retried elsewhere is in the trail too');
  });
});
