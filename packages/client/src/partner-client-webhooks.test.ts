import assert from 'node:assert/strict';
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { testBackends } from '../../../test/support/test-databases.js';
import { startTestGateway, type TestGateway } from '../../../test/support/test-gateway.js';
import { waitFor } from '../../../test/support/wait-for.js';
import { testClient } from '../test/test-client.js';
import { verifyWebhook, WebhookVerificationError } from './verify-webhook.js';

for (const backend of testBackends()) {
  describe(`PartnerClient conditional banks and webhook verification against a listening gateway on ${backend.name}`, () => {
    let t: TestGateway;
    let url: string;
    let partner: { login: string; password: string };
    const received: Array<{ headers: IncomingHttpHeaders; body: string }> = [];
    const receiver = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        received.push({ headers: request.headers, body: Buffer.concat(chunks).toString('utf8') });
        response.writeHead(204).end();
      });
    });
    before(async () => {
      t = await startTestGateway(backend, { env: { WEBHOOK_POLL_MS: '100' } });
      url = await t.app.listen({ host: '127.0.0.1', port: 0 });
      partner = await t.addPartner();
      await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    });
    after(async () => {
      await t.close();
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
    });

    it('when the list held is current, then banks({ ifNoneMatch }) reports not modified without a body; with fields, each bank carries them', async () => {
      const { client, calls } = testClient(url, partner);
      const first = await client.banks({ fields: ['sbpMemberId'] });
      assert.equal(first.notModified, false);
      assert.ok(!first.notModified && first.etag && first.version === 1 && first.banks.length > 0);
      assert.ok(!first.notModified && first.banks.every((bank) => 'sbpMemberId' in bank));
      const again = await client.banks({ ifNoneMatch: first.etag!, fields: ['sbpMemberId'] });
      assert.deepEqual(again, { notModified: true, etag: first.etag });
      assert.equal(calls.at(-1)!.headers['if-none-match'], first.etag);
      assert.equal(calls.at(-1)!.query.get('fields'), 'sbpMemberId');
    });

    it('when the list changes, then the webhook verifies with the SDK (v1a and v1), its ETag is what banks() then answers, and a tampered or stale delivery is refused', async () => {
      const { client } = testClient(url, partner);
      const held = await client.banks({ ifNoneMatch: '"none"' });
      assert.ok(!held.notModified);
      const hooks = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
      const ed = await t.gateway.admin.webhooks.create(partner.login, { url: hooks });
      const hmac = await t.gateway.admin.webhooks.create(partner.login, { url: hooks, scheme: 'v1' });
      await t.gateway.admin.banks.add({ bic: '044525997', name: 'Банк СДК' }, undefined);
      await waitFor(() => received.length === 2, { message: 'one delivery to each endpoint' });
      const signedBy = (scheme: string) => received.find((delivery) => String(delivery.headers['webhook-signature']).startsWith(`${scheme},`))!;
      const event = verifyWebhook(signedBy('v1a').body, signedBy('v1a').headers, { publicKey: ed.endpoint.publicKey! });
      assert.equal(event.type, 'sbp_banks.updated');
      assert.deepEqual(event.data.added, ['044525997']);
      assert.deepEqual(verifyWebhook(signedBy('v1').body, signedBy('v1').headers, { secret: hmac.secret! }), event);

      const after = await client.banks({ ifNoneMatch: held.etag! });
      assert.ok(!after.notModified);
      assert.equal(after.etag, event.data.etag);
      assert.equal(after.version, event.data.version);
      assert.deepEqual(await client.banks({ ifNoneMatch: event.data.etag }), { notModified: true, etag: event.data.etag });

      const v1a = signedBy('v1a');
      assert.throws(() => verifyWebhook(v1a.body.replace('044525997', '044525998'), v1a.headers, { publicKey: ed.endpoint.publicKey! }), WebhookVerificationError);
      assert.throws(() => verifyWebhook(v1a.body, v1a.headers, { secret: hmac.secret! }), WebhookVerificationError, 'a key of another endpoint');
      const later = () => (Number(v1a.headers['webhook-timestamp']) + 301) * 1000;
      assert.throws(() => verifyWebhook(v1a.body, v1a.headers, { publicKey: ed.endpoint.publicKey! }, { now: later }), /tolerance/);
      assert.ok(verifyWebhook(v1a.body, v1a.headers, { publicKey: ed.endpoint.publicKey! }, { now: later, toleranceSeconds: 600 }));
    });
  });
}
