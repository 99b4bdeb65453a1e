/**
 * Maker-checker: which actions need a second operator is a setting (none by default); a checked change answers
 * 202 with a proposal and its preview and changes nothing; another operator holding the action's permission
 * approves it within APPROVAL_TTL and it is applied as previewed, or refused with 409 when its base changed; the
 * proposer never approves its own, nor with a token it issued; the audit entry names both.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CHECKED_ACTIONS } from '@partner-gateway/contract/admin-approvals';
import { testBackends } from '../support/test-databases.js';
import { startTestGateway, TEST_ADMIN_TOKEN, type TestGateway, type TestOperator } from '../support/test-gateway.js';

const BOOTSTRAP = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };
const HOUR = 3_600_000;

for (const backend of testBackends()) {
  describe(`maker-checker on ${backend.name}`, () => {
    let clock = Date.now();
    let t: TestGateway;
    let maker: TestOperator;
    let checker: TestOperator;
    let operator: TestOperator;
    let secondOperator: TestOperator;
    let viewer: TestOperator;
    before(async () => {
      t = await startTestGateway(backend, { now: () => clock, env: { APPROVAL_TTL: '3600' } });
      maker = await t.addOperator('security', { name: 'maker-sam' });
      checker = await t.addOperator('security', { name: 'checker-cleo' });
      operator = await t.addOperator('operator', { name: 'ops-otto' });
      secondOperator = await t.addOperator('operator', { name: 'ops-olga' });
      viewer = await t.addOperator('viewer', { name: 'viewer-vic' });
    });
    after(() => t.close());
    const call = (headers: Record<string, string>, method: string, url: string, payload?: object) =>
      t.admin.inject({ method: method as 'GET', url, headers, ...(payload ? { payload } : {}) });
    const require = (actions: string[]) => call(BOOTSTRAP, 'PUT', '/admin/v1/approvals/settings', { required: actions });
    const signingKey = async () => (await t.gateway.admin.keys.list()).find((key) => key.use === 'sig' && key.active)!;

    it('when nothing is configured, then no action needs approval and the settings list every checked action', async () => {
      const settings = (await call(viewer.headers, 'GET', '/admin/v1/approvals/settings')).json();
      // Every action the contract declares checkable, from its one list: a new checked action needs no edit here.
      const listed = settings.actions as Array<{ action: string; required: boolean }>;
      assert.deepEqual(listed.map(({ action }) => action).sort(), [...CHECKED_ACTIONS].sort());
      assert.ok(listed.every(({ required }) => required === false), 'none required');
      const partner = await t.addPartner();
      assert.equal((await call(operator.headers, 'DELETE', `/admin/v1/partners/${partner.login}`)).statusCode, 204, 'applied at once');
      assert.equal((await require(['no.such.action'])).statusCode, 422);
      assert.equal((await call(operator.headers, 'PUT', '/admin/v1/approvals/settings', { required: [] })).statusCode, 403, 'security sets it');
    });

    it('when key revocation needs approval, then a proposal changes nothing, its proposer cannot approve it, and another security operator applies it', async () => {
      assert.equal((await require(['key.revoke', 'partner.delete'])).statusCode, 200);
      const key = await signingKey();
      const proposed = await call(maker.headers, 'POST', `/admin/v1/keys/${key.kid}/revoke`);
      assert.equal(proposed.statusCode, 202);
      const proposal = proposed.json();
      assert.equal(proposal.status, 'pending');
      assert.equal(proposal.action, 'key.revoke');
      assert.deepEqual(proposal.proposedBy, { id: maker.id, name: 'maker-sam', credential: 'token' });
      assert.equal(proposal.preview.revoked.kid, key.kid);
      assert.match(proposal.preview.consequence, /every access token it signed is refused at once; a new active key is made first/);
      assert.equal((await signingKey()).kid, key.kid, 'nothing changed yet');

      const own = await call(maker.headers, 'POST', `/admin/v1/approvals/${proposal.id}/approve`);
      assert.equal(own.statusCode, 403);
      assert.match(own.json().description_status, /another operator than the one who proposed it/);
      const byViewer = await call(viewer.headers, 'POST', `/admin/v1/approvals/${proposal.id}/approve`);
      assert.equal(byViewer.statusCode, 403);
      const byOperator = await call(operator.headers, 'POST', `/admin/v1/approvals/${proposal.id}/approve`);
      assert.equal(byOperator.statusCode, 403, 'approving needs the action\'s own permission');
      assert.match(byOperator.json().description_status, /keys\.write/);
      // A token the proposer issued to someone else is the proposer's hand.
      const puppet = await t.addOperator('security', { name: 'puppet', issuedBy: maker.id });
      const byPuppet = await call(puppet.headers, 'POST', `/admin/v1/approvals/${proposal.id}/approve`);
      assert.equal(byPuppet.statusCode, 403);
      assert.match(byPuppet.json().description_status, /come from the same operator/);

      const approved = await call(checker.headers, 'POST', `/admin/v1/approvals/${proposal.id}/approve`);
      assert.equal(approved.statusCode, 200, approved.body);
      assert.equal(approved.json().status, 'approved');
      assert.deepEqual(approved.json().decidedBy, { id: checker.id, name: 'checker-cleo', credential: 'token' });
      assert.equal(approved.json().result.kid, key.kid);
      assert.notEqual((await signingKey()).kid, key.kid, 'revoked, and a new key made');
      assert.equal((await call(checker.headers, 'POST', `/admin/v1/approvals/${proposal.id}/approve`)).statusCode, 409, 'applied once');

      await t.gateway.admin.audit.flush();
      const entries = (await call(viewer.headers, 'GET', '/admin/v1/audit?action=key.revoke&limit=10')).json().entries;
      const applied = entries.find((entry: { status: number }) => entry.status === 200);
      assert.deepEqual(applied.operator, { id: maker.id, name: 'maker-sam', credential: 'token' });
      assert.deepEqual(applied.approver, { id: checker.id, name: 'checker-cleo', credential: 'token' });
      assert.equal(applied.details.proposal.id, proposal.id);
      const asProposed = entries.find((entry: { status: number }) => entry.status === 202);
      assert.equal(asProposed.details.proposal.status, 'pending');
      const byApprover = (await call(viewer.headers, 'GET', `/admin/v1/audit?operator=${checker.id}&action=key.revoke`)).json();
      assert.equal(byApprover.entries.length, 1, 'the search by operator finds what it approved');
      assert.deepEqual(byApprover.total, { count: 1, capped: false });
    });

    it('when a proposal waits longer than APPROVAL_TTL, then it expires and cannot be approved', async () => {
      const partner = await t.addPartner();
      const proposal = (await call(operator.headers, 'DELETE', `/admin/v1/partners/${partner.login}`)).json();
      assert.equal(proposal.status, 'pending');
      clock += HOUR;
      const late = await call(secondOperator.headers, 'POST', `/admin/v1/approvals/${proposal.id}/approve`);
      assert.equal(late.statusCode, 409);
      assert.match(late.json().description_status, /expired/);
      assert.equal((await call(viewer.headers, 'GET', `/admin/v1/approvals/${proposal.id}`)).json().status, 'expired');
      assert.equal((await t.gateway.admin.partners.get(partner.login)).login, partner.login, 'still there');
    });

    it('when what a proposal was previewed on changes, then approving it is refused with 409 and nothing is applied', async () => {
      const partner = await t.addPartner();
      const proposal = (await call(operator.headers, 'DELETE', `/admin/v1/partners/${partner.login}`)).json();
      assert.deepEqual(proposal.preview.removed.ipAllowlist, ['127.0.0.1/32', '::1/128']);
      assert.equal((await call(operator.headers, 'PATCH', `/admin/v1/partners/${partner.login}`, { ipAllowlist: ['10.0.0.1'] })).statusCode, 200);
      assert.equal((await call(maker.headers, 'POST', `/admin/v1/approvals/${proposal.id}/approve`)).statusCode, 403, 'removing a partner is approved by an operator');
      const refused = await call(secondOperator.headers, 'POST', `/admin/v1/approvals/${proposal.id}/approve`);
      assert.equal(refused.statusCode, 409);
      assert.match(refused.json().description_status, /has changed since/);
      assert.equal((await t.gateway.admin.partners.get(partner.login)).login, partner.login, 'not removed');
      const after = (await call(viewer.headers, 'GET', `/admin/v1/approvals/${proposal.id}`)).json();
      assert.equal(after.status, 'conflict');
      assert.equal((await call(secondOperator.headers, 'POST', `/admin/v1/approvals/${proposal.id}/approve`)).statusCode, 409);
    });

    it('when a proposal is rejected or withdrawn, then it can no longer be approved', async () => {
      const partner = await t.addPartner();
      const first = (await call(operator.headers, 'DELETE', `/admin/v1/partners/${partner.login}`)).json();
      const rejected = await call(secondOperator.headers, 'POST', `/admin/v1/approvals/${first.id}/reject`, { reason: 'wrong partner' });
      assert.equal(rejected.statusCode, 200);
      assert.deepEqual({ status: rejected.json().status, reason: rejected.json().reason }, { status: 'rejected', reason: 'wrong partner' });
      assert.equal((await call(secondOperator.headers, 'POST', `/admin/v1/approvals/${first.id}/approve`)).statusCode, 409);
      const second = (await call(operator.headers, 'DELETE', `/admin/v1/partners/${partner.login}`)).json();
      const withdrawn = await call(operator.headers, 'POST', `/admin/v1/approvals/${second.id}/reject`, {});
      assert.equal(withdrawn.json().reason, 'withdrawn by its proposer');
      const pending = (await call(viewer.headers, 'GET', '/admin/v1/approvals?status=pending')).json().proposals;
      assert.ok(!pending.some((proposal: { id: string }) => proposal.id === first.id || proposal.id === second.id));
    });

    it('when replacing and restoring the bank list need approval, then each is a proposal with every change, applied by another operator, and refused once the list has moved', async () => {
      assert.equal((await require(['banks.replace', 'banks.restore'])).statusCode, 200);
      const list = async () => (await call(viewer.headers, 'GET', '/admin/v1/banks')).json();
      const before = await list();
      const replace = await call(operator.headers, 'PUT', '/admin/v1/banks', { banks: [{ bic: '044525225', name: 'Сбербанк' }] });
      assert.equal(replace.statusCode, 202);
      assert.equal(replace.json().action, 'banks.replace');
      assert.equal(replace.json().preview.removed, before.banks.length - 1);
      assert.equal((await list()).version, before.version, 'nothing changed yet');
      const approved = await call(secondOperator.headers, 'POST', `/admin/v1/approvals/${replace.json().id}/approve`);
      assert.equal(approved.statusCode, 200, approved.body);
      assert.equal((await list()).banks.length, 1);
      const restore = await call(operator.headers, 'POST', `/admin/v1/banks/versions/${before.version}/restore`);
      assert.equal(restore.statusCode, 202);
      assert.equal(restore.json().preview.added, before.banks.length - 1);
      assert.equal((await call(operator.headers, 'POST', '/admin/v1/banks', { bic: '044030777', name: 'Новый' })).statusCode, 201, 'the list moves on');
      const refused = await call(secondOperator.headers, 'POST', `/admin/v1/approvals/${restore.json().id}/approve`);
      assert.equal(refused.statusCode, 409);
      assert.equal((await list()).banks.length, 2, 'not restored');
      assert.equal((await require([])).statusCode, 200);
    });

    it('when partner changes need approval, then an allowlist, a status and a password change each wait, shown as the partner will be, an invalid one is refused at once, a password is never shown, and its approver needs the credentials permission', async () => {
      assert.equal((await require(['partner.update'])).statusCode, 200);
      const partner = await t.addPartner();
      const allowlist = await call(operator.headers, 'PATCH', `/admin/v1/partners/${partner.login}`, { ipAllowlist: ['127.0.0.1/32', '::1/128', '203.0.113.0/24'], status: 'blocked' });
      assert.equal(allowlist.statusCode, 202, allowlist.body);
      const { before, after, sessionsEnded } = allowlist.json().preview;
      assert.deepEqual({ status: before.status, ipAllowlist: before.ipAllowlist }, { status: 'active', ipAllowlist: ['127.0.0.1/32', '::1/128'] });
      assert.deepEqual({ status: after.status, ipAllowlist: after.ipAllowlist }, { status: 'blocked', ipAllowlist: ['127.0.0.1/32', '::1/128', '203.0.113.0/24'] }, 'the approver sees the partner as it will be');
      assert.equal(sessionsEnded, true, 'and that a block ends its sessions');
      const typo = await call(operator.headers, 'PATCH', `/admin/v1/partners/${partner.login}`, { rewardTypes: ['spb'] });
      assert.equal(typo.statusCode, 422, 'a change that would be refused is refused when proposed, not when approved');
      assert.match(typo.json().description_status, /rewardTypes\[0\]: must be one of/);
      const unchanged = await t.gateway.admin.partners.get(partner.login);
      assert.deepEqual({ status: unchanged.status, ipAllowlist: unchanged.ipAllowlist }, { status: 'active', ipAllowlist: ['127.0.0.1/32', '::1/128'] });
      assert.equal((await call(secondOperator.headers, 'POST', `/admin/v1/approvals/${allowlist.json().id}/approve`)).statusCode, 200);
      assert.equal((await t.gateway.admin.partners.get(partner.login)).status, 'blocked');

      const newPassword = 'a-new-password-for-the-partner';
      const reset = await call(maker.headers, 'PATCH', `/admin/v1/partners/${partner.login}`, { password: newPassword });
      assert.equal(reset.statusCode, 202, reset.body);
      const listed = (await call(viewer.headers, 'GET', '/admin/v1/approvals?status=pending')).body;
      assert.ok(!listed.includes(newPassword) && !listed.includes('$argon2'), 'neither the password nor its hash is shown');
      assert.equal(reset.json().request.body.password, '(a new password, kept hashed)');
      const byOperator = await call(secondOperator.headers, 'POST', `/admin/v1/approvals/${reset.json().id}/approve`);
      assert.equal(byOperator.statusCode, 403, 'a password is the security role\'s');
      assert.match(byOperator.json().description_status, /partners\.credentials/);
      assert.equal((await call(checker.headers, 'POST', `/admin/v1/approvals/${reset.json().id}/approve`)).statusCode, 200);
      assert.equal((await call(BOOTSTRAP, 'PATCH', `/admin/v1/partners/${partner.login}`, { status: 'active' })).statusCode, 202);
      const reactivate = (await call(viewer.headers, 'GET', '/admin/v1/approvals?status=pending')).json().proposals[0];
      assert.equal((await call(secondOperator.headers, 'POST', `/admin/v1/approvals/${reactivate.id}/approve`)).statusCode, 200);
      const login = await t.app.inject({ method: 'POST', url: '/api/v1/login/', payload: { login: partner.login, password: newPassword } });
      assert.equal(login.statusCode, 200, 'the approved password works');
      await require([]);
    });

    it('when creating a partner needs approval, then it does not exist until another operator approves, its password is never shown, and a taken login is refused when proposed', async () => {
      assert.equal((await require(['partner.create'])).statusCode, 200);
      const login = `proposed-${backend.name}`;
      const password = 'the-first-password-of-the-partner';
      const body = { login, password, ipAllowlist: ['127.0.0.1/32'], rewardTypes: ['sbp'] };
      const proposed = await call(operator.headers, 'POST', '/admin/v1/partners', body);
      assert.equal(proposed.statusCode, 202, proposed.body);
      assert.deepEqual(proposed.json().preview.created, { login, status: 'active', ipAllowlist: ['127.0.0.1/32'], rewardTypes: ['sbp'] });
      assert.equal(proposed.json().request.password, '(its first password, kept hashed)');
      const listed = (await call(viewer.headers, 'GET', '/admin/v1/approvals?status=pending')).body;
      assert.ok(!listed.includes(password) && !listed.includes('$argon2'), 'neither the password nor its hash is shown');
      assert.equal((await call(viewer.headers, 'GET', `/admin/v1/partners/${login}`)).statusCode, 404, 'nothing exists yet');
      const refused = await t.app.inject({ method: 'POST', url: '/api/v1/login/', payload: { login, password } });
      assert.equal(refused.statusCode, 401, 'it cannot log in before the approval');
      const taken = await t.addPartner();
      assert.equal((await call(operator.headers, 'POST', '/admin/v1/partners', { ...body, login: taken.login })).statusCode, 409, 'a taken login is refused when proposed');
      assert.equal((await call(operator.headers, 'POST', `/admin/v1/approvals/${proposed.json().id}/approve`)).statusCode, 403, 'not by its proposer');
      const approved = await call(secondOperator.headers, 'POST', `/admin/v1/approvals/${proposed.json().id}/approve`);
      assert.equal(approved.statusCode, 200, approved.body);
      const loggedIn = await t.app.inject({ method: 'POST', url: '/api/v1/login/', payload: { login, password } });
      assert.equal(loggedIn.statusCode, 200, 'the approved partner logs in with the password chosen when it was proposed');
      const entry = (await call(viewer.headers, 'GET', `/admin/v1/audit?action=partner.create&partner=${login}`)).json().entries[0];
      assert.deepEqual({ operator: entry.operator?.name, approver: entry.approver?.name }, { operator: operator.name, approver: secondOperator.name });
      await require([]);
    });

    it('when the settings themselves need approval, then nobody turns maker-checker off alone', async () => {
      assert.equal((await require(['approvals.configure', 'key.revoke'])).statusCode, 200);
      const off = await call(maker.headers, 'PUT', '/admin/v1/approvals/settings', { required: [] });
      assert.equal(off.statusCode, 202);
      assert.deepEqual(off.json().preview, { before: ['approvals.configure', 'key.revoke'], after: [] });
      assert.equal((await call(viewer.headers, 'GET', '/admin/v1/approvals/settings')).json().actions.find((action: { action: string }) => action.action === 'key.revoke').required, true);
      assert.equal((await call(checker.headers, 'POST', `/admin/v1/approvals/${off.json().id}/approve`)).statusCode, 200);
      assert.ok((await call(viewer.headers, 'GET', '/admin/v1/approvals/settings')).json().actions.every((action: { required: boolean }) => !action.required));
    });
  });
}
