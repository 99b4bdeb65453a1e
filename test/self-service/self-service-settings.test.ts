import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ADMIN_AUDIT_PATH, SELF_ALLOWLIST_PATH, SELF_SETTINGS_PATH } from '@partner-gateway/contract/paths';
import type { SelfSettings } from '@partner-gateway/contract/self-service';
import { startListeningGateway } from '../support/key-partner.js';
import { selfServiceCaller, selfServicePartner } from '../support/self-service-caller.js';
import { testBackends } from '../support/test-databases.js';
import { TEST_ADMIN_TOKEN, type TestGateway } from '../support/test-gateway.js';
import { waitFor } from '../support/wait-for.js';

// Issue 37: a partner reads its settings, and changes its own allowlist only when an operator allowed it, never
// into a list that would lock out the address changing it, never with a bearer token, and two changes at once
// never lose one silently.

for (const backend of testBackends()) {
  describe(`a partner's own settings on ${backend.name}`, () => {
    let t: TestGateway & { url: string };
    let caller: ReturnType<typeof selfServiceCaller>;
    before(async () => {
      t = await startListeningGateway(backend);
      caller = selfServiceCaller(t.url, () => Date.now());
    });
    after(() => t.close());

    const keyPartner = () => selfServicePartner(t, caller);
    const admin = (method: 'GET' | 'PATCH', url: string, payload?: unknown) =>
      t.admin.inject({ method, url, headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` }, ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }) });
    const setAllowlist = (partner: Awaited<ReturnType<typeof keyPartner>>, ipAllowlist: unknown) => caller.call(partner.token, 'PUT', SELF_ALLOWLIST_PATH, { ipAllowlist }, partner.dpopKey);
    const codeOf = async (response: Response) => ((await response.json()) as { code?: string; description_status: string });

    it('when a partner reads its settings, then it sees what operators set, and nothing secret', async () => {
      const partner = await keyPartner();
      const response = await caller.call(await caller.token(partner.login, partner.key), 'GET', SELF_SETTINGS_PATH);
      assert.equal(response.status, 200);
      const settings = (await response.json()) as SelfSettings & Record<string, unknown>;
      assert.deepEqual(settings, {
        login: partner.login,
        status: 'active',
        ipAllowlist: ['127.0.0.1/32', '::1/128'],
        rewardTypes: ['sbp'],
        authMethods: settings.authMethods,
        requireSenderConstrainedTokens: false,
        selfManagedAllowlist: false,
      });
      assert.ok(settings.authMethods.includes('private_key_jwt'));
    });

    it('when the operator has not allowed it, then a partner cannot change its allowlist; once allowed, it can, with a bound token, to a list that includes its own address, and the operator sees the change in the audit trail', async () => {
      const partner = await keyPartner();
      const refused = await setAllowlist(partner, ['127.0.0.1', '203.0.113.0/24']);
      assert.equal(refused.status, 403);
      assert.match((await codeOf(refused)).description_status, /managed by the provider/);

      // Letting a partner widen its own allowlist is the security role's, as its credentials are.
      const operator = await t.addOperator('operator');
      const byOperator = await t.admin.inject({ method: 'PATCH', url: `/admin/v1/partners/${partner.login}`, headers: operator.headers, payload: { selfManagedAllowlist: true } });
      assert.equal(byOperator.statusCode, 403, byOperator.body);
      assert.equal((await admin('PATCH', `/admin/v1/partners/${partner.login}`, { selfManagedAllowlist: true })).statusCode, 200);
      const bearer = await caller.call(await caller.token(partner.login, partner.key), 'PUT', SELF_ALLOWLIST_PATH, { ipAllowlist: ['127.0.0.1'] });
      assert.equal(bearer.status, 403);
      assert.match((await codeOf(bearer)).description_status, /bound to your DPoP key/);
      const lockout = await setAllowlist(partner, ['203.0.113.0/24']);
      assert.equal(lockout.status, 422);
      assert.match((await codeOf(lockout)).description_status, /does not include the address this request came from/);
      const bad = await setAllowlist(partner, ['127.0.0.1', 'not-an-address']);
      assert.equal(bad.status, 422);
      assert.match(JSON.stringify(await bad.json()), /ipAllowlist\[1\]/);
      assert.deepEqual(((await admin('GET', `/admin/v1/partners/${partner.login}`)).json() as { ipAllowlist: string[] }).ipAllowlist, ['127.0.0.1/32', '::1/128'], 'nothing changed by the refusals');

      const changed = await setAllowlist(partner, ['127.0.0.1', '203.0.113.0/24', '203.0.113.7']);
      assert.equal(changed.status, 200, await changed.clone().text());
      assert.deepEqual(((await changed.json()) as SelfSettings).ipAllowlist, ['127.0.0.1/32', '203.0.113.0/24', '203.0.113.7/32']);
      assert.deepEqual(((await admin('GET', `/admin/v1/partners/${partner.login}`)).json() as { ipAllowlist: string[] }).ipAllowlist, ['127.0.0.1/32', '203.0.113.0/24', '203.0.113.7/32']);
      const entry = await waitFor(async () => {
        const { entries } = (await admin('GET', `${ADMIN_AUDIT_PATH}?partner=${partner.login}&action=self.allowlist.set&outcome=success`)).json() as { entries: Array<{ details: unknown }> };
        return entries[0];
      });
      assert.deepEqual(entry.details, { before: { ipAllowlist: ['127.0.0.1/32', '::1/128'] }, after: { ipAllowlist: ['127.0.0.1/32', '203.0.113.0/24', '203.0.113.7/32'] } });

      // The operator takes the leave back: the next change is refused again.
      assert.equal((await admin('PATCH', `/admin/v1/partners/${partner.login}`, { selfManagedAllowlist: false })).statusCode, 200);
      assert.equal((await setAllowlist(partner, ['127.0.0.1'])).status, 403);
    });

    it('when a partner sends five allowlist changes at once, then each is applied or answered 409, and the list stored is one a 200 answered', async () => {
      const partner = await keyPartner();
      assert.equal((await admin('PATCH', `/admin/v1/partners/${partner.login}`, { selfManagedAllowlist: true })).statusCode, 200);
      const lists = [1, 2, 3, 4, 5].map((n) => ['127.0.0.1', `198.51.100.${n}`]);
      const answers = await Promise.all(lists.map((list) => setAllowlist(partner, list)));
      const statuses = answers.map((answer) => answer.status);
      assert.ok(statuses.every((status) => status === 200 || status === 409), String(statuses));
      assert.ok(statuses.includes(200));
      const applied = await Promise.all(answers.filter((answer) => answer.status === 200).map(async (answer) => ((await answer.json()) as SelfSettings).ipAllowlist));
      const stored = ((await admin('GET', `/admin/v1/partners/${partner.login}`)).json() as { ipAllowlist: string[] }).ipAllowlist;
      assert.ok(applied.some((list) => JSON.stringify(list) === JSON.stringify(stored)), `${JSON.stringify(stored)} was answered 200`);
    });
  });
}
