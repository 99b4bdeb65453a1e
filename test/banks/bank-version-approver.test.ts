/**
 * History names proposer and approver as the audit does (issue 33): a bank version applied by approving a
 * proposal names its proposer as author and the approving operator as approver, over HTTP, like the audit entry
 * of that approval; a change made at once names its operator and no approver.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { testBackends } from '../support/test-databases.js';
import { startTestGateway, TEST_ADMIN_TOKEN, type TestGateway, type TestOperator } from '../support/test-gateway.js';

const BOOTSTRAP = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };

for (const backend of testBackends()) {
  describe(`bank versions applied on approval on ${backend.name}`, () => {
    let t: TestGateway;
    let proposer: TestOperator;
    let approver: TestOperator;
    before(async () => {
      t = await startTestGateway(backend);
      proposer = await t.addOperator('operator', { name: 'ops-paula' });
      approver = await t.addOperator('operator', { name: 'ops-arne' });
    });
    after(() => t.close());
    const call = (headers: Record<string, string>, method: string, url: string, payload?: object) =>
      t.admin.inject({ method: method as 'GET', url, headers, ...(payload ? { payload } : {}) });
    const ref = (operator: TestOperator, name: string) => ({ id: operator.id, name, credential: 'token' });

    it('when a bank edit is made at once, then its version names its operator and no approver', async () => {
      const bic = (await call(BOOTSTRAP, 'GET', '/admin/v1/banks')).json().banks[0].bic;
      assert.equal((await call(proposer.headers, 'PATCH', `/admin/v1/banks/${bic}`, { nameEn: 'At once' })).statusCode, 200);
      const latest = (await call(proposer.headers, 'GET', '/admin/v1/banks/versions?limit=1')).json().versions[0];
      assert.deepEqual([latest.author, latest.approver], [ref(proposer, 'ops-paula'), null]);
    });

    it('when a bank edit is approved, then its version names the proposer as author and the approver, as its audit entry does', async () => {
      assert.equal((await call(BOOTSTRAP, 'PUT', '/admin/v1/approvals/settings', { required: ['bank.edit'] })).statusCode, 200);
      const bic = (await call(BOOTSTRAP, 'GET', '/admin/v1/banks')).json().banks[1].bic;
      const proposed = await call(proposer.headers, 'PATCH', `/admin/v1/banks/${bic}`, { sbpMemberId: '100000000777' });
      assert.equal(proposed.statusCode, 202, proposed.body);
      const approved = await call(approver.headers, 'POST', `/admin/v1/approvals/${proposed.json().id}/approve`);
      assert.equal(approved.statusCode, 200, approved.body);

      const summary = (await call(proposer.headers, 'GET', '/admin/v1/banks/versions?limit=1')).json().versions[0];
      assert.deepEqual([summary.author, summary.approver], [ref(proposer, 'ops-paula'), ref(approver, 'ops-arne')]);
      const version = (await call(proposer.headers, 'GET', `/admin/v1/banks/versions/${summary.number}`)).json();
      assert.deepEqual([version.author.id, version.approver.id], [proposer.id, approver.id]);

      await t.gateway.admin.audit.flush();
      const entry = (await call(BOOTSTRAP, 'GET', '/admin/v1/audit?action=bank.edit&limit=10')).json().entries.find((candidate: { status: number; approver: unknown }) => candidate.status === 200 && candidate.approver);
      assert.equal(entry.details.version, summary.number);
      assert.deepEqual([entry.operator.id, entry.approver.id], [summary.author.id, summary.approver.id], 'history and audit name the same people');
    });
  });
}
