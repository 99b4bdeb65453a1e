/**
 * Webhooks with two gateway processes on one PostgreSQL (issue 34, done-when 6): every bank list version, made
 * through either instance's admin API, reaches a loopback receiver exactly once as a success, verified with the
 * `standardwebhooks` npm package, although both instances poll the one outbox every 50 ms and the receiver
 * refuses each event's first attempt (the retry may be taken by either instance). In-process siblings,
 * retries, replay and rotation are test/banks/bank-webhooks.test.ts's.
 */
import assert from 'node:assert/strict';
import { randomBytes, randomInt } from 'node:crypto';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { Webhook } from 'standardwebhooks';
import { startGatewayProcesses, stopGatewayProcess, type GatewayProcess } from '../support/gateway-process.js';
import { waitFor } from '../support/wait-for.js';

const url = process.env.TEST_DATABASE_URL;
const ADMIN_TOKEN = randomBytes(24).toString('hex');
const MASTER_KEY = randomBytes(32).toString('hex');
/** Bank list versions published, alternating between the instances. */
const VERSIONS = 6;

describe('webhooks from two gateway processes on one PostgreSQL', { skip: url ? false : 'TEST_DATABASE_URL is not set' }, () => {
  const schema = `hooks_${randomBytes(5).toString('hex')}`;
  let a: GatewayProcess;
  let b: GatewayProcess;
  const requests: Array<{ headers: IncomingHttpHeaders; body: string; status: number }> = [];
  const tried = new Set<string>();
  // The partner's receiver: the first attempt of each event is answered 503, a retry 200.
  const receiver = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const id = String(request.headers['webhook-id']);
      const status = tried.has(id) ? 200 : 503;
      tried.add(id);
      requests.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8'), status });
      response.writeHead(status).end();
    });
  });
  let secret: string;
  let login: string;

  before(async () => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(`create schema ${schema}`);
    await client.end();
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    // NODE_ENV=test: in production a webhook URL must be https and public, and the receiver is plain HTTP on loopback.
    const env = {
      DATABASE_URL: `${url}?options=${encodeURIComponent(`-c search_path=${schema}`)}`,
      ADMIN_TOKEN,
      MASTER_KEY,
      NODE_ENV: 'test',
      PUBLIC_URL: 'http://gateway.test',
      WEBHOOK_POLL_MS: '50',
      WEBHOOK_RETRY_BASE_MS: '20',
    };
    [a, b] = (await startGatewayProcesses(2, env)) as [GatewayProcess, GatewayProcess];
    login = `hooks-${randomInt(1e9)}`;
    const partner = await admin(a, 'POST', '/admin/v1/partners', { login, password: 'a webhook partner password', ipAllowlist: ['127.0.0.1'], rewardTypes: ['sbp'] });
    assert.equal(partner.status, 201, JSON.stringify(partner.json));
    const created = await admin(b, 'POST', `/admin/v1/partners/${login}/webhooks`, { url: `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`, scheme: 'v1' });
    assert.equal(created.status, 201, JSON.stringify(created.json));
    secret = created.json.secret;
  });
  after(async () => {
    await Promise.all([a, b].filter(Boolean).map((instance) => stopGatewayProcess(instance)));
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(`drop schema ${schema} cascade`);
    await client.end();
  });

  async function admin(instance: GatewayProcess, method: string, path: string, body?: unknown) {
    const response = await fetch(`${instance.admin}${path}`, {
      method,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return { status: response.status, json: (text ? JSON.parse(text) : undefined) as any };
  }

  it('when bank list versions are published through both instances, then each event is delivered once, after one refused attempt, signed as Standard Webhooks verify it', async () => {
    const first = Number((await admin(a, 'GET', '/admin/v1/banks')).json.version);
    for (let index = 0; index < VERSIONS; index++) {
      const bic = `04452590${index}`;
      const added = await admin(index % 2 === 0 ? a : b, 'POST', '/admin/v1/banks', { bic, name: `Банк Двух Процессов ${index}` });
      assert.equal(added.status, 201, JSON.stringify(added.json));
    }
    const delivered = () => requests.filter((request) => request.status === 200);
    await waitFor(() => delivered().length >= VERSIONS, { timeout: 30_000, message: `${VERSIONS} events delivered` });
    // One more version, delivered after both instances have polled the outbox many times over: a duplicate of the
    // first six would have come by now.
    assert.equal((await admin(b, 'DELETE', '/admin/v1/banks/044525900')).status, 204);
    await waitFor(() => new Set(delivered().map((request) => request.headers['webhook-id'])).size === VERSIONS + 1, { timeout: 30_000, message: 'the last event delivered' });

    const versions = delivered().map((request) => {
      const event = new Webhook(secret).verify(request.body, {
        'webhook-id': String(request.headers['webhook-id']),
        'webhook-timestamp': String(request.headers['webhook-timestamp']),
        'webhook-signature': String(request.headers['webhook-signature']),
      }) as { type: string; data: { version: number; added: string[]; removed: string[] } };
      assert.equal(event.type, 'sbp_banks.updated');
      return event.data.version;
    });
    assert.deepEqual([...versions].sort((x, y) => x - y), Array.from({ length: VERSIONS + 1 }, (_, index) => first + 1 + index), 'every version once');
    const ids = delivered().map((request) => String(request.headers['webhook-id']));
    assert.equal(new Set(ids).size, VERSIONS + 1, 'no event delivered twice');
    assert.equal(requests.length, 2 * (VERSIONS + 1), 'each event: one refused attempt, one delivery, nothing more');

    const endpoints = (await admin(a, 'GET', `/admin/v1/partners/${login}/webhooks`)).json.endpoints as Array<{ id: string; status: string }>;
    const log = (await admin(b, 'GET', `/admin/v1/partners/${login}/webhooks/${endpoints[0]!.id}/attempts`)).json.attempts as Array<{ outcome: string }>;
    assert.deepEqual([log.filter((attempt) => attempt.outcome === 'delivered').length, log.filter((attempt) => attempt.outcome === 'failed').length], [VERSIONS + 1, VERSIONS + 1], 'the log matches what the receiver saw');
  });
});
