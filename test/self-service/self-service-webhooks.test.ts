import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { WebhookAttemptList, WebhookEndpointCreated, WebhookEndpointList } from '@partner-gateway/contract/admin-webhooks';
import {
  ADMIN_AUDIT_PATH,
  SELF_KEYS_PATH,
  SELF_PASSWORD_PATH,
  SELF_WEBHOOK_ATTEMPTS_PATH,
  SELF_WEBHOOK_PATH,
  SELF_WEBHOOK_REPLAY_PATH,
  SELF_WEBHOOK_ROTATE_PATH,
  SELF_WEBHOOKS_PATH,
  selfWebhookPath,
} from '@partner-gateway/contract/paths';
import type { CredentialExpiringEvent } from '@partner-gateway/contract/webhook-events';
import { startListeningGateway } from '../support/key-partner.js';
import { testKey } from '../support/oauth-client.js';
import { selfServiceCaller, selfServicePartner } from '../support/self-service-caller.js';
import { testBackends } from '../support/test-databases.js';
import { TEST_ADMIN_TOKEN, type TestGateway } from '../support/test-gateway.js';
import { waitFor } from '../support/wait-for.js';
import { receiver, verifiesV1a } from '../support/webhook-receiver.js';

// Issue 37: a partner's own webhook endpoints through the self-service API, the credential.expiring event 7 days
// before a key's overlap window ends (a controlled clock), and tenant isolation: every webhook route called with
// another partner's endpoint id answers exactly as an unknown id, and changes nothing.

const DAY = 86_400_000;

for (const backend of testBackends()) {
  describe(`self-service webhooks on ${backend.name}`, () => {
    let t: TestGateway & { url: string };
    let clock = Date.now();
    let caller: ReturnType<typeof selfServiceCaller>;
    const hooks = receiver();
    let hookUrl: string;
    before(async () => {
      t = await startListeningGateway(backend, { now: () => clock, env: { WEBHOOK_POLL_MS: '50', WEBHOOK_RETRY_BASE_MS: '20' } });
      caller = selfServiceCaller(t.url, () => clock);
      hookUrl = await hooks.listen();
    });
    after(async () => {
      await t.close();
      await hooks.close();
    });

    const keyPartner = () => selfServicePartner(t, caller);
    type KeyPartner = Awaited<ReturnType<typeof keyPartner>>;
    const as = (partner: KeyPartner, method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown) => caller.call(partner.token, method, path, body, partner.dpopKey);
    const createEndpoint = async (partner: KeyPartner) => {
      const response = await as(partner, 'POST', SELF_WEBHOOKS_PATH, { url: `${hookUrl}?partner=${partner.login}` });
      assert.equal(response.status, 201, await response.clone().text());
      return (await response.json()) as WebhookEndpointCreated;
    };
    const eventsFor = (login: string) =>
      hooks.requests.filter((request) => request.url === `/hooks?partner=${login}`).map((request) => ({ request, event: JSON.parse(request.body) as CredentialExpiringEvent }));

    it('when a partner rotates its key with a one-hour overlap, then its own endpoint gets a signed credential.expiring event for the old key, its log shows the delivery, and a replay sends it again', async () => {
      const partner = await keyPartner();
      const { endpoint } = await createEndpoint(partner);
      const publicKey = endpoint.publicKey;
      assert.ok(publicKey?.startsWith('whpk_'));
      const listed = (await (await as(partner, 'GET', SELF_WEBHOOKS_PATH)).json()) as WebhookEndpointList;
      assert.deepEqual(listed.endpoints.map((each) => each.id), [endpoint.id]);

      const next = await testKey();
      const rotated = await as(partner, 'POST', SELF_KEYS_PATH, { key: next.publicJwk, overlapSeconds: 3600 });
      assert.equal(rotated.status, 200, await rotated.clone().text());
      // The dispatcher looks for ending credentials at most once a minute: a minute passes on the gateway's clock.
      clock += 61_000;
      const [{ request, event }] = (await waitFor(() => (eventsFor(partner.login).length > 0 ? eventsFor(partner.login) : undefined))) as [ReturnType<typeof eventsFor>[number]];
      assert.equal(event.type, 'credential.expiring');
      assert.equal(event.data.credential, 'key');
      assert.equal(event.data.id, partner.key.kid);
      const keys = ((await rotated.json()) as { keys: Array<{ kid: string; expiresAt?: string }> }).keys;
      assert.equal(event.data.expiresAt, keys.find((key) => key.kid === partner.key.kid)!.expiresAt, 'the end the rotation chose');
      assert.ok(verifiesV1a(publicKey!, request), 'signed with the endpoint key');

      const log = await waitFor(async () => {
        const body = (await (await as(partner, 'GET', `${selfWebhookPath(SELF_WEBHOOK_ATTEMPTS_PATH, endpoint.id)}?limit=5`)).json()) as WebhookAttemptList;
        return body.attempts.length > 0 ? body : undefined;
      });
      assert.equal(log.attempts[0]!.outcome, 'delivered');
      const eventId = String(request.headers['webhook-id']);
      assert.equal(log.attempts[0]!.eventId, eventId);

      // Later scans find the same end: it is one event (its id is the credential's and its end's), sent once.
      clock += 61_000;
      const replayed = await as(partner, 'POST', selfWebhookPath(SELF_WEBHOOK_REPLAY_PATH, endpoint.id), { eventId });
      assert.deepEqual(await replayed.json(), { queued: 1 });
      await waitFor(() => eventsFor(partner.login).length === 2);
      assert.deepEqual(
        eventsFor(partner.login).map(({ request: each }) => each.headers['webhook-id']),
        [eventId, eventId],
      );
    });

    it('when a key ends in ten days, then nothing is announced until it is seven days away', async () => {
      const partner = await keyPartner();
      await createEndpoint(partner);
      const rotated = await as(partner, 'POST', SELF_KEYS_PATH, { key: (await testKey()).publicJwk, overlapSeconds: 10 * 86_400 });
      assert.equal(rotated.status, 200);
      clock += 61_000;
      // Another partner's event made in the same pass is the sign that this one's pass has run.
      const witness = await keyPartner();
      await createEndpoint(witness);
      await as(witness, 'POST', SELF_KEYS_PATH, { key: (await testKey()).publicJwk, overlapSeconds: 3600 });
      clock += 61_000;
      await waitFor(() => eventsFor(witness.login).length === 1);
      assert.equal(eventsFor(partner.login).length, 0, 'ten days away: not yet');

      clock += 3 * DAY;
      await waitFor(() => eventsFor(partner.login).length === 1);
      assert.equal(eventsFor(partner.login)[0]!.event.data.id, partner.key.kid);
    });

    it('when a partner rotates its API password with a one-hour overlap, then its endpoint gets credential.expiring for the previous password, and the credentials-ending gauge counts it until the hour has passed', async () => {
      const partner = await keyPartner();
      await createEndpoint(partner);
      const ending = async () => {
        const text = (await t.admin.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } })).body;
        return Number(/^partner_gateway_partner_credentials_ending\{credential="password"\} (\d+)$/m.exec(text)?.[1] ?? Number.NaN);
      };
      const before = await ending();
      const rotated = await as(partner, 'POST', SELF_PASSWORD_PATH, { overlapSeconds: 3600 });
      assert.equal(rotated.status, 200, await rotated.clone().text());
      const { previousPasswordUntil } = (await rotated.json()) as { previousPasswordUntil: string };
      assert.equal(await ending(), before + 1);
      clock += 61_000;
      const [{ event }] = (await waitFor(() => (eventsFor(partner.login).length > 0 ? eventsFor(partner.login) : undefined))) as [ReturnType<typeof eventsFor>[number]];
      assert.deepEqual(event.data, { credential: 'password', id: 'previous', expiresAt: previousPasswordUntil });
      clock += 3600_000;
      assert.equal(await ending(), before, 'ended: no longer counted');
    });

    it("when a partner calls every webhook route with another partner's endpoint id, then each answers exactly as for an unknown id, and the other's endpoint is unchanged", async () => {
      const owner = await keyPartner();
      const intruder = await keyPartner();
      const { endpoint } = await createEndpoint(owner);
      const unknown = randomUUID();
      const routes = [
        ['DELETE', SELF_WEBHOOK_PATH, undefined],
        ['POST', SELF_WEBHOOK_ROTATE_PATH, {}],
        ['GET', SELF_WEBHOOK_ATTEMPTS_PATH, undefined],
        ['POST', SELF_WEBHOOK_REPLAY_PATH, { since: new Date(clock - DAY).toISOString() }],
      ] as const;
      const answer = async (id: string, [method, path, body]: (typeof routes)[number]) => {
        const response = await as(intruder, method, selfWebhookPath(path, id), body);
        const text = (await response.text()).replaceAll(id, '{id}').replace(/"request_id":"[^"]*"/, '');
        return { status: response.status, text };
      };
      for (const route of routes) {
        const theirs = await answer(endpoint.id, route);
        assert.equal(theirs.status, 404, `${route[0]} ${route[1]}`);
        assert.deepEqual(theirs, await answer(unknown, route), `${route[0]} ${route[1]}`);
      }
      // A replay by event id never reaches another partner's event: as unknown as one that never existed.
      const ownEvent = await as(owner, 'POST', SELF_KEYS_PATH, { key: (await testKey()).publicJwk, overlapSeconds: 3600 });
      assert.equal(ownEvent.status, 200);
      clock += 61_000;
      const [{ request }] = (await waitFor(() => (eventsFor(owner.login).length > 0 ? eventsFor(owner.login) : undefined))) as [ReturnType<typeof eventsFor>[number]];
      const { endpoint: intruderEndpoint } = await createEndpoint(intruder);
      const byId = await as(intruder, 'POST', selfWebhookPath(SELF_WEBHOOK_REPLAY_PATH, intruderEndpoint.id), { eventId: request.headers['webhook-id'] });
      assert.equal(byId.status, 404);
      const since = await as(intruder, 'POST', selfWebhookPath(SELF_WEBHOOK_REPLAY_PATH, intruderEndpoint.id), { since: new Date(clock - DAY).toISOString() });
      assert.deepEqual(await since.json(), { queued: 0 });
      assert.deepEqual(
        ((await (await as(owner, 'GET', SELF_WEBHOOKS_PATH)).json()) as WebhookEndpointList).endpoints.map((each) => [each.id, each.previousUntil, each.status]),
        [[endpoint.id, null, 'enabled']],
      );
    });

    it('when a change comes with a bearer token or one without scope self, then it is refused, nothing changes, and the changes a partner makes are in the audit trail under its name', async () => {
      const partner = await keyPartner();
      const bearer = await caller.token(partner.login, partner.key);
      const { endpoint } = await createEndpoint(partner);
      for (const [method, path, body] of [
        ['POST', SELF_WEBHOOKS_PATH, { url: hookUrl }],
        ['DELETE', selfWebhookPath(SELF_WEBHOOK_PATH, endpoint.id), undefined],
        ['POST', selfWebhookPath(SELF_WEBHOOK_ROTATE_PATH, endpoint.id), {}],
        ['POST', selfWebhookPath(SELF_WEBHOOK_REPLAY_PATH, endpoint.id), { since: new Date(clock).toISOString() }],
      ] as const) {
        const response = await caller.call(bearer, method, path, body);
        assert.equal(response.status, 403, `${method} ${path}`);
        assert.equal(((await response.json()) as { code?: string; error?: string; description_status: string }).description_status.startsWith('A change needs a token bound'), true);
      }
      const plain = (await (await caller.tokenRequest(partner.login, partner.key)).json()) as { access_token: string };
      const unscoped = await caller.call(plain.access_token, 'GET', SELF_WEBHOOKS_PATH);
      assert.equal(unscoped.status, 403);
      assert.match(String(unscoped.headers.get('www-authenticate')), /insufficient_scope/);
      assert.equal(((await (await as(partner, 'GET', SELF_WEBHOOKS_PATH)).json()) as WebhookEndpointList).endpoints.length, 1);

      const rotated = await as(partner, 'POST', selfWebhookPath(SELF_WEBHOOK_ROTATE_PATH, endpoint.id), { scheme: 'v1' });
      const secret = ((await rotated.json()) as WebhookEndpointCreated).secret;
      assert.ok(secret?.startsWith('whsec_'));
      assert.equal((await as(partner, 'DELETE', selfWebhookPath(SELF_WEBHOOK_PATH, endpoint.id))).status, 204);
      const entries = await waitFor(async () => {
        const response = await t.admin.inject({ method: 'GET', url: `${ADMIN_AUDIT_PATH}?partner=${partner.login}`, headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } });
        const { entries: all } = response.json() as { entries: Array<{ action: string; outcome: string; details: unknown }> };
        const changes = all.filter((entry) => entry.action.startsWith('self.webhooks.') && entry.outcome === 'success');
        return changes.length >= 3 ? changes : undefined;
      });
      assert.deepEqual(entries.map((entry) => entry.action).sort(), ['self.webhooks.create', 'self.webhooks.delete', 'self.webhooks.rotate']);
      assert.ok(!JSON.stringify(entries).includes(secret!), 'no secret in the audit trail');
    });
  });
}
