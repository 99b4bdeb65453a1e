import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { WebhookEndpointCreated } from '@partner-gateway/contract/admin-webhooks';
import {
  SELF_CALLS_PATH,
  SELF_CERTIFICATES_PATH,
  SELF_KEYS_PATH,
  SELF_SETTINGS_PATH,
  SELF_USAGE_PATH,
  SELF_USER_PATH,
  SELF_USERS_PATH,
  SELF_WEBHOOK_ATTEMPTS_PATH,
  SELF_WEBHOOK_PATH,
  SELF_WEBHOOK_REPLAY_PATH,
  SELF_WEBHOOK_ROTATE_PATH,
  SELF_WEBHOOKS_PATH,
  selfWebhookPath,
} from '@partner-gateway/contract/paths';
import { startListeningGateway } from '../support/key-partner.js';
import { registerKeys, testKey } from '../support/oauth-client.js';
import { invitedUser, type PortalBrowser } from '../support/portal-browser.js';
import { testBackends } from '../support/test-databases.js';
import type { TestGateway } from '../support/test-gateway.js';

// Issue 37's tenant-isolation matrix for the portal: partner B's admin, signed in with a passkey, calls every
// self-service route that takes an id with partner A's ids, and each answers exactly as an unknown id does and
// changes nothing; every section the portal shows (keys, certificates, calls, usage, settings, webhooks, people)
// holds nothing of A's.

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

for (const backend of testBackends()) {
  describe(`the portal's tenant isolation on ${backend.name}`, () => {
    let t: TestGateway & { url: string; publicUrl: string };
    let a: { login: string; kid: string; admin: PortalBrowser; endpoint: string; userId: string };
    let b: { login: string; admin: PortalBrowser };
    before(async () => {
      t = await startListeningGateway(backend, {}, 'localhost');
      const partnerA = await t.addPartner();
      const keyA = await testKey();
      await registerKeys(t.gateway, partnerA.login, [keyA]);
      const adminA = await invitedUser(t, partnerA.login, 'a-admin@a.example', 'partner-admin');
      const created = await adminA.call('POST', SELF_WEBHOOKS_PATH, { url: 'http://127.0.0.1:9/hooks' });
      assert.equal(created.status, 201, await created.clone().text());
      a = { login: partnerA.login, kid: keyA.kid, admin: adminA, endpoint: ((await created.json()) as WebhookEndpointCreated).endpoint.id, userId: adminA.session!.user.id };
      const partnerB = await t.addPartner();
      await registerKeys(t.gateway, partnerB.login, [await testKey()]);
      b = { login: partnerB.login, admin: await invitedUser(t, partnerB.login, 'b-admin@b.example', 'partner-admin') };
    });
    after(async () => t.close());

    /** Every self-service route that names an id, with the body a valid call sends. */
    const routesWithIds = (webhook: string, user: string): Array<[Method, string, unknown]> => [
      ['DELETE', selfWebhookPath(SELF_WEBHOOK_PATH, webhook), undefined],
      ['POST', selfWebhookPath(SELF_WEBHOOK_ROTATE_PATH, webhook), {}],
      ['GET', selfWebhookPath(SELF_WEBHOOK_ATTEMPTS_PATH, webhook), undefined],
      ['POST', selfWebhookPath(SELF_WEBHOOK_REPLAY_PATH, webhook), { since: new Date(Date.now() - 3600_000).toISOString() }],
      ['PUT', SELF_USER_PATH.replace(':id', user), { role: 'partner-developer' }],
      ['DELETE', SELF_USER_PATH.replace(':id', user), undefined],
    ];
    const answer = async (response: Response) => `${response.status} ${(await response.text()).replaceAll(/[0-9a-f-]{36}|pu_[A-Za-z0-9_-]+/g, '<id>')}`;

    it("when B's admin calls every route with A's ids, then each answers exactly as an unknown id does", async () => {
      const foreign = routesWithIds(a.endpoint, a.userId);
      const unknown = routesWithIds(randomUUID(), `pu_${'x'.repeat(24)}`);
      for (const [index, [method, path, body]] of foreign.entries()) {
        const [unknownMethod, unknownPath, unknownBody] = unknown[index]!;
        assert.equal(await answer(await b.admin.call(method, path, body)), await answer(await b.admin.call(unknownMethod, unknownPath, unknownBody)), `${method} ${path}`);
      }
    });

    it("when A's admin reads afterwards, then A's endpoint and A's admin are as they were", async () => {
      const endpoints = (await (await a.admin.call('GET', SELF_WEBHOOKS_PATH)).json()) as { endpoints: Array<{ id: string; status: string }> };
      assert.deepEqual(endpoints.endpoints.map((endpoint) => endpoint.id), [a.endpoint]);
      const people = (await (await a.admin.call('GET', SELF_USERS_PATH)).json()) as { users: Array<{ id: string; role: string }> };
      assert.deepEqual(people.users.map((user) => [user.id, user.role]), [[a.userId, 'partner-admin']]);
    });

    it("when B's admin opens every section of the portal, then none holds A's login, key, endpoint or people", async () => {
      for (const path of [SELF_KEYS_PATH, SELF_CERTIFICATES_PATH, SELF_CALLS_PATH, SELF_USAGE_PATH, SELF_SETTINGS_PATH, SELF_WEBHOOKS_PATH, SELF_USERS_PATH, '/portal/api/session']) {
        const response = await b.admin.call('GET', path);
        assert.equal(response.status, 200, path);
        const text = await response.text();
        for (const secret of [a.login, a.kid, a.endpoint, a.userId, 'a-admin@a.example']) assert.ok(!text.includes(secret), `${path} shows ${secret}`);
      }
    });
  });
}
