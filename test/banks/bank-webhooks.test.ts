import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Webhook } from 'standardwebhooks';
import { bankListClients } from '../support/bank-list-clients.js';
import { errors } from '../../src/errors.js';
import { MAX_WEBHOOKS_PER_PARTNER } from '../../src/webhooks/webhook-admin.js';
import { testBackends } from '../support/test-databases.js';
import { startSiblingGateway, startTestGateway, type TestGateway } from '../support/test-gateway.js';
import { waitFor } from '../support/wait-for.js';
import { receiver, verifiesV1a, type Received } from '../support/webhook-receiver.js';

const headersOf = (received: Received) => ({
  'webhook-id': String(received.headers['webhook-id']),
  'webhook-timestamp': String(received.headers['webhook-timestamp']),
  'webhook-signature': String(received.headers['webhook-signature']),
});

for (const backend of testBackends()) {
  describe(`bank list webhooks over HTTP on ${backend.name}`, () => {
    const hmacReceiver = receiver();
    const edReceiver = receiver();
    let t: TestGateway;
    let sibling: TestGateway;
    let adminUrl: string;
    let siblingAdminUrl: string;
    let clients: Awaited<ReturnType<typeof bankListClients>>;
    let login: string;
    let hmac: { id: string; secret: string };
    let ed: { id: string; publicKey: string };
    const env = { WEBHOOK_RETRY_BASE_MS: '20', WEBHOOK_POLL_MS: '100', WEBHOOK_TIMEOUT_MS: '2000' };

    before(async () => {
      t = await startTestGateway(backend, { env });
      sibling = await startSiblingGateway(t, { env });
      const api = await t.app.listen({ host: '127.0.0.1', port: 0 });
      adminUrl = await t.admin.listen({ host: '127.0.0.1', port: 0 });
      siblingAdminUrl = await sibling.admin.listen({ host: '127.0.0.1', port: 0 });
      clients = await bankListClients(t, api, adminUrl);
      login = (await t.addPartner()).login;
      const hmacUrl = await hmacReceiver.listen();
      const edUrl = await edReceiver.listen();
      const created = await admin('POST', `/admin/v1/partners/${login}/webhooks`, { url: hmacUrl, scheme: 'v1' });
      assert.equal(created.status, 201, JSON.stringify(created.json));
      assert.match(created.json.secret, /^whsec_/);
      hmac = { id: created.json.endpoint.id, secret: created.json.secret };
      const createdEd = await admin('POST', `/admin/v1/partners/${login}/webhooks`, { url: edUrl }, siblingAdminUrl);
      assert.equal(createdEd.status, 201);
      assert.equal(createdEd.json.endpoint.scheme, 'v1a');
      assert.equal(createdEd.json.secret, null);
      ed = { id: createdEd.json.endpoint.id, publicKey: createdEd.json.endpoint.publicKey };
    });
    after(async () => {
      await sibling?.close();
      await t?.close();
      await hmacReceiver.close();
      await edReceiver.close();
    });

    const admin = (method: string, path: string, body?: unknown, base = adminUrl) => clients.admin(method, path, body === undefined ? undefined : JSON.stringify(body), 'application/json', base);
    const attempts = async (id: string) => (await admin('GET', `/admin/v1/partners/${login}/webhooks/${id}/attempts`)).json.attempts as Array<{ eventId: string; outcome: string; statusCode: number | null }>;

    it('when a bank list version is published with two instances running, then each endpoint receives sbp_banks.updated once, signed as Standard Webhooks verify it', async () => {
      edReceiver.answerWith(() => 200);
      const added = await admin('POST', '/admin/v1/banks', { bic: '044525999', name: 'Банк Вебхук' }, siblingAdminUrl);
      assert.equal(added.status, 201, JSON.stringify(added.json));
      await waitFor(() => hmacReceiver.requests.length === 1 && edReceiver.requests.length === 1, { message: 'one delivery to each endpoint' });
      // Both instances look again, several times: nothing is sent twice.
      await Promise.all([t.gateway.runtime.deliverWebhooks(), sibling.gateway.runtime.deliverWebhooks(), t.gateway.runtime.deliverWebhooks(), sibling.gateway.runtime.deliverWebhooks()]);
      await waitFor(async () => (await attempts(hmac.id)).length === 1 && (await attempts(ed.id)).length === 1, { message: 'both deliveries logged' });
      assert.equal(hmacReceiver.requests.length, 1);
      assert.equal(edReceiver.requests.length, 1);

      const [received] = hmacReceiver.requests as [Received];
      const event = new Webhook(hmac.secret).verify(received.body, headersOf(received)) as { type: string; data: { version: number; etag: string; added: string[]; removed: string[] } };
      assert.equal(event.type, 'sbp_banks.updated');
      const banks = await clients.partnerBanks();
      assert.equal(String(event.data.version), banks.version);
      assert.equal(event.data.etag, banks.etag);
      assert.deepEqual([event.data.added, event.data.removed], [['044525999'], []]);
      assert.match(String(edReceiver.requests[0]!.headers['webhook-signature']), /^v1a,[A-Za-z0-9+/=]+$/);
      assert.ok(verifiesV1a(ed.publicKey, edReceiver.requests[0]!), 'the v1a signature verifies with the endpoint public key');
      assert.equal(edReceiver.requests[0]!.headers['webhook-id'], received.headers['webhook-id'], 'one event, one id for every endpoint');
      assert.deepEqual((await attempts(hmac.id)).map((attempt) => [attempt.outcome, attempt.statusCode]), [['delivered', 200]]);
    });

    it('when a receiver fails, then the delivery is tried again with backoff until it succeeds, and the log shows each attempt', async () => {
      let failures = 0;
      edReceiver.answerWith(() => (failures++ < 2 ? 503 : 204));
      const before = edReceiver.requests.length;
      assert.equal((await admin('DELETE', '/admin/v1/banks/044525999')).status, 204);
      await waitFor(() => edReceiver.requests.length === before + 3, { message: 'two failures and a success' });
      const tries = edReceiver.requests.slice(before);
      assert.equal(new Set(tries.map((received) => received.headers['webhook-id'])).size, 1, 'every retry is the same event');
      assert.ok(tries.every((received) => verifiesV1a(ed.publicKey, received)));
      await waitFor(async () => (await attempts(ed.id))[0]?.outcome === 'delivered', { message: 'the success logged' });
      assert.deepEqual((await attempts(ed.id)).slice(0, 3).map((attempt) => [attempt.outcome, attempt.statusCode]), [['delivered', 204], ['failed', 503], ['failed', 503]]);
      assert.equal(edReceiver.requests.length, before + 3, 'nothing more once delivered');
    });

    it('when an operator replays an event, then it is delivered again with the same webhook-id', async () => {
      const [first] = hmacReceiver.requests as [Received];
      const eventId = String(first.headers['webhook-id']);
      const count = hmacReceiver.requests.length;
      const replayed = await admin('POST', `/admin/v1/partners/${login}/webhooks/${hmac.id}/replay`, { eventId });
      assert.deepEqual([replayed.status, replayed.json], [200, { queued: 1 }]);
      await waitFor(() => hmacReceiver.requests.length === count + 1, { message: 'the replayed delivery' });
      const again = hmacReceiver.requests.at(-1)!;
      assert.equal(again.headers['webhook-id'], eventId);
      assert.equal(again.body, first.body);
      new Webhook(hmac.secret).verify(again.body, headersOf(again));
      const unknown = await admin('POST', `/admin/v1/partners/${login}/webhooks/${hmac.id}/replay`, { eventId: 'msg_unknown' });
      assert.deepEqual([unknown.status, unknown.json.code ?? unknown.json.error], [404, unknown.json.code ?? unknown.json.error]);
      const since = await admin('POST', `/admin/v1/partners/${login}/webhooks/${hmac.id}/replay`, { since: new Date(Date.now() - 3_600_000).toISOString() });
      assert.deepEqual([since.status, since.json], [200, { queued: 2 }], 'both events of the last hour');
      await waitFor(() => hmacReceiver.requests.length === count + 3, { message: 'the two replayed deliveries' });
    });

    it('when a secret is rotated, then deliveries carry both signatures, each verifying with its own secret, and the new secret is shown once', async () => {
      const rotated = await admin('POST', `/admin/v1/partners/${login}/webhooks/${hmac.id}/rotate`, {});
      assert.equal(rotated.status, 200);
      const secret = rotated.json.secret as string;
      assert.match(secret, /^whsec_/);
      assert.notEqual(secret, hmac.secret);
      assert.ok(rotated.json.endpoint.previousUntil, 'an overlap');
      const listed = await admin('GET', `/admin/v1/partners/${login}/webhooks`);
      assert.ok(!JSON.stringify(listed.json).includes(secret.slice(6)) && !JSON.stringify(listed.json).includes(hmac.secret.slice(6)), 'no secret in the list');
      const count = hmacReceiver.requests.length;
      assert.equal((await admin('POST', '/admin/v1/banks', { bic: '044525998', name: 'Банк Ротации' })).status, 201);
      await waitFor(() => hmacReceiver.requests.length === count + 1, { message: 'the delivery after the rotation' });
      const received = hmacReceiver.requests.at(-1)!;
      assert.equal(String(received.headers['webhook-signature']).split(' ').length, 2);
      new Webhook(secret).verify(received.body, headersOf(received));
      new Webhook(hmac.secret).verify(received.body, headersOf(received));
      assert.ok(!t.logs.join('').includes(secret.slice(6)) && !sibling.logs.join('').includes(secret.slice(6)), 'the secret is never logged');
      const audit = JSON.stringify((await admin('GET', '/admin/v1/audit?action=partner.webhook.rotate')).json);
      assert.ok(audit.includes('partner.webhook.rotate') && !audit.includes(secret.slice(6)), 'audited without the secret');
    });

    it('when a webhook URL names a private address or is no URL, then it is refused with 422', async () => {
      const refused = await admin('POST', `/admin/v1/partners/${login}/webhooks`, { url: 'ftp://example.test/x' });
      assert.equal(refused.status, 422);
      const unknown = await admin('POST', '/admin/v1/partners/nobody-here/webhooks', { url: 'https://example.test/x' });
      assert.equal(unknown.status, 404);
    });

    it(`when ${MAX_WEBHOOKS_PER_PARTNER * 3} endpoints are registered at once through both instances, then the partner holds ${MAX_WEBHOOKS_PER_PARTNER} and the rest are refused webhook_limit`, async () => {
      const owner = (await t.addPartner()).login;
      const unused = receiver();
      after(() => unused.close());
      const url = await unused.listen();
      const answers = await Promise.all(
        Array.from({ length: MAX_WEBHOOKS_PER_PARTNER * 3 }, (_, n) => admin('POST', `/admin/v1/partners/${owner}/webhooks`, { url: `${url}?n=${n}` }, n % 2 === 0 ? adminUrl : siblingAdminUrl)),
      );
      const statuses = answers.map((answer) => answer.status);
      assert.deepEqual([statuses.filter((status) => status === 201).length, statuses.filter((status) => status === 422).length], [MAX_WEBHOOKS_PER_PARTNER, MAX_WEBHOOKS_PER_PARTNER * 2]);
      assert.equal(answers.find((answer) => answer.status === 422)!.json.description_status, errors.webhookLimit(MAX_WEBHOOKS_PER_PARTNER).description);
      assert.equal(((await admin('GET', `/admin/v1/partners/${owner}/webhooks`)).json.endpoints as unknown[]).length, MAX_WEBHOOKS_PER_PARTNER);
    });
  });
}
