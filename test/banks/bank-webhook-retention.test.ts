/**
 * Webhook delivery's ends over real HTTP (issue 34): an endpoint that keeps failing is disabled and counted in the
 * metrics, while a healthy one beside it is delivered to; and the outbox forgets finished events after
 * WEBHOOK_RETENTION_DAYS (the delivery log and what a replay reaches go with them), never one still being tried.
 * Retries, replay and rotation are bank-webhooks.test.ts's.
 */
import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { bankListClients } from '../support/bank-list-clients.js';
import { testBackends } from '../support/test-databases.js';
import { startTestGateway, TEST_ADMIN_TOKEN, type TestGateway } from '../support/test-gateway.js';
import { waitFor } from '../support/wait-for.js';

const DAY_MS = 86_400_000;

/**
 * A loopback receiver answering `status` to every request, keeping what it received; `hold` keeps answers back
 * (the delivery stays in flight, pending) until `release`.
 */
async function receiver(status: number) {
  const requests: Array<{ headers: IncomingHttpHeaders; body: string }> = [];
  const held: Array<() => void> = [];
  let holding = false;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      requests.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
      const answer = () => response.writeHead(status).end();
      if (holding) held.push(answer);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    requests,
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hooks`,
    hold: () => (holding = true),
    release() {
      holding = false;
      for (const answer of held.splice(0)) answer();
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

for (const backend of testBackends()) {
  describe(`webhook endpoints disabled and the outbox purged, over HTTP on ${backend.name}`, () => {
    let t: TestGateway;
    let clients: Awaited<ReturnType<typeof bankListClients>>;
    let healthy: Awaited<ReturnType<typeof receiver>>;
    let failing: Awaited<ReturnType<typeof receiver>>;
    let login: string;
    let good: { id: string; secret: string };
    let bad: { id: string };
    // The gateway's clock: real time, moved forward to make events old.
    let offset = 0;

    before(async () => {
      healthy = await receiver(204);
      failing = await receiver(500);
      const env = { WEBHOOK_RETRY_BASE_MS: '20', WEBHOOK_RETRY_WINDOW_SECONDS: '1', WEBHOOK_POLL_MS: '50', WEBHOOK_TIMEOUT_MS: '10000', WEBHOOK_RETENTION_DAYS: '30' };
      t = await startTestGateway(backend, { env, now: () => Date.now() + offset });
      const api = await t.app.listen({ host: '127.0.0.1', port: 0 });
      clients = await bankListClients(t, api, await t.admin.listen({ host: '127.0.0.1', port: 0 }));
      login = (await t.addPartner()).login;
      const created = await admin('POST', `/admin/v1/partners/${login}/webhooks`, { url: healthy.url, scheme: 'v1' });
      good = { id: created.json.endpoint.id, secret: created.json.secret };
      bad = { id: (await admin('POST', `/admin/v1/partners/${login}/webhooks`, { url: failing.url })).json.endpoint.id };
    });
    after(async () => {
      await t?.close();
      await healthy?.close();
      await failing?.close();
    });

    const admin = (method: string, path: string, body?: unknown) => clients.admin(method, path, body === undefined ? undefined : JSON.stringify(body));
    const endpoint = async (id: string) => ((await admin('GET', `/admin/v1/partners/${login}/webhooks`)).json.endpoints as Array<{ id: string; status: string; disabledReason: string | null }>).find((each) => each.id === id)!;
    const attempts = async (id: string) => (await admin('GET', `/admin/v1/partners/${login}/webhooks/${id}/attempts`)).json.attempts as Array<{ outcome: string; statusCode: number | null }>;
    const metric = async (name: string) => {
      const text = (await t.admin.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } })).body;
      const line = text.split('\n').find((each) => each.startsWith(`${name} `));
      return line === undefined ? undefined : Number(line.split(' ')[1]);
    };

    it('when an endpoint fails every attempt for the whole retry window, then it is disabled with the reason, counted in the metrics, and sent nothing more; the healthy endpoint gets every event', async () => {
      assert.equal((await admin('POST', '/admin/v1/banks', { bic: '044525997', name: 'Банк Отказа' })).status, 201);
      await waitFor(async () => (await endpoint(bad.id)).status === 'disabled', { message: 'the failing endpoint disabled', timeout: 15_000 });
      const disabled = await endpoint(bad.id);
      assert.match(disabled.disabledReason!, /^failed every attempt for 1 s; last: .*500/);
      const tried = await attempts(bad.id);
      assert.ok(tried.length >= 3 && tried.every((attempt) => [attempt.outcome, attempt.statusCode].join() === 'failed,500'), JSON.stringify(tried));
      assert.equal(failing.requests.length, tried.length, 'one request per logged attempt');
      assert.equal(await metric('partner_gateway_webhook_endpoints_disabled_total'), 1);
      assert.equal(await metric('partner_gateway_webhook_endpoints_disabled'), 1);

      assert.equal((await admin('DELETE', '/admin/v1/banks/044525997')).status, 204);
      await waitFor(() => healthy.requests.length === 2, { message: 'both events delivered to the healthy endpoint' });
      for (const received of healthy.requests) {
        new Webhook(good.secret).verify(received.body, { 'webhook-id': String(received.headers['webhook-id']), 'webhook-timestamp': String(received.headers['webhook-timestamp']), 'webhook-signature': String(received.headers['webhook-signature']) });
      }
      await t.gateway.runtime.deliverWebhooks();
      assert.equal(failing.requests.length, tried.length, 'a disabled endpoint is sent nothing');
    });

    it('when finished events are older than WEBHOOK_RETENTION_DAYS, then the purge deletes them with their delivery log; an event a delivery is still in flight for stays until it is done', async () => {
      const [first] = healthy.requests;
      const eventId = String(first!.headers['webhook-id']);
      const logged = { good: (await attempts(good.id)).length, bad: (await attempts(bad.id)).length };
      assert.deepEqual([logged.good, logged.bad > 0], [2, true]);
      offset = 29 * DAY_MS;
      await t.gateway.runtime.purgeExpired();
      assert.equal((await attempts(good.id)).length, 2, 'nothing is 30 days old yet');

      offset = 31 * DAY_MS;
      const slow = await receiver(200);
      slow.hold();
      try {
        const created = await admin('POST', `/admin/v1/partners/${login}/webhooks`, { url: slow.url });
        const slowId = created.json.endpoint.id as string;
        assert.deepEqual((await admin('POST', `/admin/v1/partners/${login}/webhooks/${slowId}/replay`, { eventId })).json, { queued: 1 });
        await waitFor(() => slow.requests.length === 1, { message: 'the replayed delivery in flight' });
        await t.gateway.runtime.purgeExpired();
        assert.equal((await attempts(good.id)).length, 1, 'the second event and its log are gone; the first, still being delivered, stays');
        assert.equal((await attempts(bad.id)).length, logged.bad, 'the first event\u2019s log stays with it');
        assert.deepEqual((await admin('POST', `/admin/v1/partners/${login}/webhooks/${good.id}/replay`, { since: new Date(0).toISOString() })).json, { queued: 1 }, 'only the first event is left to replay');

        slow.release();
        await waitFor(async () => (await attempts(slowId))[0]?.outcome === 'delivered' && healthy.requests.length === 3, { message: 'both replays delivered' });
        await t.gateway.runtime.purgeExpired();
        assert.deepEqual([(await attempts(good.id)).length, (await attempts(bad.id)).length, (await attempts(slowId)).length], [0, 0, 0]);
        assert.deepEqual((await admin('POST', `/admin/v1/partners/${login}/webhooks/${good.id}/replay`, { since: new Date(0).toISOString() })).json, { queued: 0 });
      } finally {
        slow.release();
        offset = 0;
        await slow.close();
      }
    });
  });
}
