/**
 * Every path that changes the bank list meets the same checks (issue 33, finding 5): a merge import and a removal
 * that would take more banks from partners than the sync may (BANKS_SYNC_MAX_REMOVALS, BANKS_SYNC_MIN_BANKS) are
 * held for a second operator whatever the approval settings, with the same preview; and merge imports, additions,
 * edits and removals can each be put under maker-checker.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { testBackends } from '../support/test-databases.js';
import { startTestGateway, TEST_ADMIN_TOKEN, type TestGateway, type TestOperator } from '../support/test-gateway.js';

const BOOTSTRAP = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };
const SBERBANK = '044525225';

/** A Bank of Russia directory (ED807) holding one SBP head office: merged, it removes every other bank. */
function oneBankDirectory(bic: string): Buffer {
  return Buffer.from(
    `<?xml version="1.0" encoding="UTF-8"?><ED807 xmlns="urn:cbr-ru:ed:v2.0" EDNo="1" EDDate="2023-05-17" EDAuthor="4583001999">` +
      `<BICDirectoryEntry BIC="${bic}"><ParticipantInfo NameP="ПАО Сбербанк" PtType="20" Srvcs="5" ParticipantStatus="PSAC"/></BICDirectoryEntry></ED807>`,
  );
}

for (const backend of testBackends()) {
  describe(`bank list changes under the removal guard and maker-checker on ${backend.name}`, () => {
    let t: TestGateway;
    let maker: TestOperator;
    let checker: TestOperator;
    before(async () => {
      t = await startTestGateway(backend, { env: { BANKS_SYNC_MAX_REMOVALS: '10', BANKS_SYNC_MIN_BANKS: '39' } });
      maker = await t.addOperator('operator', { name: 'maker-mia' });
      checker = await t.addOperator('operator', { name: 'checker-chen' });
    });
    after(() => t.close());

    const call = (headers: Record<string, string>, method: string, url: string, payload?: object | Buffer, extra: Record<string, string> = {}) =>
      t.admin.inject({ method: method as 'GET', url, headers: { ...headers, ...extra }, ...(payload ? { payload } : {}) });
    const published = async () => (await call(checker.headers, 'GET', '/admin/v1/banks')).json() as { version: number; banks: Array<{ bic: string; name: string }> };
    const requireApproval = (actions: string[]) => call(BOOTSTRAP, 'PUT', '/admin/v1/approvals/settings', { required: actions });

    it('when a merge import would remove 38 banks with banks.replace and banks.restore under maker-checker, then it is held with its preview, and applied only when another operator approves', async () => {
      assert.equal((await requireApproval(['banks.replace', 'banks.restore'])).statusCode, 200);
      const before = await published();
      assert.equal(before.banks.length, 39);
      const imported = await call(maker.headers, 'POST', '/admin/v1/banks/import', oneBankDirectory(SBERBANK), { 'content-type': 'application/xml' });
      assert.equal(imported.statusCode, 202, imported.body);
      const proposal = imported.json();
      assert.equal(proposal.action, 'banks.import');
      assert.equal(proposal.preview.removed, 38);
      assert.match(proposal.preview.heldBecause, /it would remove 38 banks \(more than BANKS_SYNC_MAX_REMOVALS, 10\)/);
      assert.match(proposal.preview.heldBecause, /it would leave 1 banks \(fewer than BANKS_SYNC_MIN_BANKS, 39\)/);
      assert.deepEqual(await published(), before, 'partners still receive the 39 banks');

      assert.equal((await call(maker.headers, 'POST', `/admin/v1/approvals/${proposal.id}/approve`)).statusCode, 403, 'not by its proposer');
      const approved = await call(checker.headers, 'POST', `/admin/v1/approvals/${proposal.id}/approve`);
      assert.equal(approved.statusCode, 200, approved.body);
      const after = await published();
      assert.deepEqual(after.banks.map((bank) => bank.bic), [SBERBANK]);
      assert.equal(after.version, before.version + 1);

      await t.gateway.admin.audit.flush();
      const entries = (await call(checker.headers, 'GET', '/admin/v1/audit?action=banks.import&limit=10')).json().entries;
      const held = entries.find((entry: { status: number }) => entry.status === 202);
      assert.match(held.details.heldBecause, /BANKS_SYNC_MAX_REMOVALS/);
      const applied = entries.find((entry: { status: number }) => entry.status === 200);
      assert.equal(applied.operator.id, maker.id);
      assert.equal(applied.approver.id, checker.id);
      assert.equal(applied.details.removed.length, 38);

      // Back to the default list for the next test (a replace under maker-checker: another approval).
      const restored = await call(maker.headers, 'POST', `/admin/v1/banks/versions/${before.version}/restore`);
      assert.equal(restored.statusCode, 202);
      assert.equal((await call(checker.headers, 'POST', `/admin/v1/approvals/${restored.json().id}/approve`)).statusCode, 200);
      assert.equal((await published()).banks.length, 39);
    });

    it('when a merge import stays within the limits and nothing asks for approval, then it is applied at once', async () => {
      assert.equal((await requireApproval([])).statusCode, 200);
      const csv = Buffer.from(`bic,name\n${SBERBANK},Сбер\n`);
      const imported = await call(maker.headers, 'POST', '/admin/v1/banks/import', csv, { 'content-type': 'text/csv' });
      assert.equal(imported.statusCode, 200, imported.body);
      assert.deepEqual(imported.json().changed, [SBERBANK]);
      assert.equal((await published()).banks.find((bank) => bank.bic === SBERBANK)!.name, 'Сбер');
    });

    it('when a removal would leave fewer banks than BANKS_SYNC_MIN_BANKS, then it is held for a second operator', async () => {
      const [first] = (await published()).banks;
      const removed = await call(maker.headers, 'DELETE', `/admin/v1/banks/${first!.bic}`);
      assert.equal(removed.statusCode, 202, removed.body);
      assert.equal(removed.json().action, 'bank.remove');
      assert.match(removed.json().preview.heldBecause, /it would leave 38 banks \(fewer than BANKS_SYNC_MIN_BANKS, 39\)/);
      assert.ok((await published()).banks.some((bank) => bank.bic === first!.bic), 'still offered');
      assert.equal((await call(checker.headers, 'POST', `/admin/v1/approvals/${removed.json().id}/reject`, { reason: 'keep it' })).statusCode, 200);
    });

    it('when merge imports, additions, edits and removals are put under maker-checker, then each is a proposal that changes nothing until approved', async () => {
      assert.equal((await requireApproval(['banks.import', 'bank.add', 'bank.edit', 'bank.remove'])).statusCode, 200);
      const before = await published();
      const csv = await call(maker.headers, 'POST', '/admin/v1/banks/import', Buffer.from(`bic,name\n${SBERBANK},Сбербанк\n`), { 'content-type': 'text/csv' });
      assert.equal(csv.statusCode, 202, csv.body);
      assert.deepEqual(csv.json().preview.changed, 1);
      const added = await call(maker.headers, 'POST', '/admin/v1/banks', { bic: '049999961', name: 'Новый банк' });
      assert.equal(added.statusCode, 202, added.body);
      assert.equal(added.json().preview.added, 1);
      const edited = await call(maker.headers, 'PATCH', `/admin/v1/banks/${SBERBANK}`, { nameEn: 'Sber' });
      assert.equal(edited.statusCode, 202, edited.body);
      assert.deepEqual(edited.json().preview.changes.map((change: { bic: string }) => change.bic), [SBERBANK]);
      const removed = await call(maker.headers, 'DELETE', `/admin/v1/banks/${before.banks[1]!.bic}`);
      assert.equal(removed.statusCode, 202, removed.body);
      assert.deepEqual(await published(), before, 'nothing changed yet');

      const approvedAdd = await call(checker.headers, 'POST', `/admin/v1/approvals/${added.json().id}/approve`);
      assert.equal(approvedAdd.statusCode, 200, approvedAdd.body);
      assert.equal(approvedAdd.json().result.bank.bic, '049999961');
      assert.equal((await call(checker.headers, 'POST', `/admin/v1/approvals/${edited.json().id}/approve`)).statusCode, 409, 'the list moved since the edit was previewed');
      const after = await published();
      assert.equal(after.banks.at(-1)!.bic, '049999961');
      assert.equal(after.banks.length, 40);
    });
  });
}
