import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { after, before, beforeEach, describe, it } from 'node:test';
import { loadDefaultBanks } from '../../../banks/default-banks.js';
import { projectFile } from '../../../project-root.js';
import { testBackends } from '../../../../test/support/test-databases.js';
import { startTestGateway, TEST_ADMIN_TOKEN, type TestGateway } from '../../../../test/support/test-gateway.js';

const ED807 = projectFile('../shared/data/20230518_ED807_full.xml');

for (const backend of testBackends()) {
  describe(`bank import dry run (POST /admin/v1/banks/import?dryRun=true) on ${backend.name}`, () => {
    let t: TestGateway;
    before(async () => {
      t = await startTestGateway(backend);
    });
    after(() => t.close());
    beforeEach(async () => {
      await t.gateway.admin.banks.replaceAll({ banks: loadDefaultBanks() });
    });

    const importFile = (query: string, body: string | Buffer, contentType: string) =>
      t.admin.inject({
        method: 'POST',
        url: `/admin/v1/banks/import${query}`,
        headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': contentType },
        payload: body,
      });
    const bankList = async () => (await t.gateway.admin.banks.list()).map(({ bic, name, nameEn, sbpMemberId, position }) => ({ bic, name, nameEn, sbpMemberId, position }));

    const files: Array<[string, () => string | Buffer, string]> = [
      ['CSV', () => 'bic,name\n044525225,Сбербанк России\n049999999,Банк Тест\n044525974,Т-Банк\n', 'text/csv'],
      ['JSON', () => JSON.stringify({ banks: [{ bic: '044525225', name: 'Сбербанк', nameEn: 'Sberbank', sbpMemberId: '100000000111' }, { bic: '049999998', name: 'Новый' }] }), 'application/json'],
      ...(existsSync(ED807) ? [['ED807', () => readFileSync(ED807), 'application/xml'] as [string, () => Buffer, string]] : []),
    ];
    for (const [kind, body, contentType] of files) {
      for (const mode of ['replace', 'merge']) {
        it(`when a ${kind} file is previewed in ${mode} mode, then the preview is exactly what the import then does, and changes nothing itself`, async () => {
          const listBefore = await bankList();
          const preview = await importFile(`?mode=${mode}&dryRun=true`, body(), contentType);
          assert.equal(preview.statusCode, 200, preview.body);
          assert.deepEqual(await bankList(), listBefore, 'a dry run changes nothing');
          assert.equal(preview.json().applied, false);
          const { baseVersion } = preview.json();
          const applied = await importFile(`?mode=${mode}&confirm=true&baseVersion=${baseVersion}`, body(), contentType);
          assert.equal(applied.statusCode, 200, applied.body);
          assert.deepEqual({ ...(preview.json() as object), applied: true, version: baseVersion + 1 }, applied.json());
        });
      }
    }

    it('lists every bad row in one 422, as the import does, and dryRun=false imports', async () => {
      const csv = 'bic,name\n044525225,Ok\n4452522,Bad\n044525974,\n';
      const preview = await importFile('?dryRun=true', csv, 'text/csv');
      assert.equal(preview.statusCode, 422);
      assert.deepEqual(
        preview.json().errors.map((error: { field: string }) => error.field),
        ['line 3.bic', 'line 4.name'],
      );
      assert.deepEqual(preview.json(), (await importFile('', csv, 'text/csv')).json());
      assert.equal((await importFile('?dryRun=true', '[]', 'application/json')).statusCode, 422);
      assert.equal((await importFile('?dryRun=true', '%PDF', 'application/pdf')).statusCode, 415);
      assert.equal((await importFile('?dryRun=maybe', csv, 'text/csv')).statusCode, 422);
      const applied = await importFile('?dryRun=false', 'bic,name\n044525225,Сбер\n', 'text/csv');
      assert.equal(applied.statusCode, 200);
      assert.equal((await bankList())[0]?.name, 'Сбер');
    });

    it('records a dry run in the audit trail as one, with no changes', async () => {
      await importFile('?dryRun=true&mode=merge', 'bic,name\n049999999,Банк Тест\n', 'text/csv');
      const trail = await t.admin.inject({ method: 'GET', url: '/admin/v1/audit?action=banks.import&limit=1', headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } });
      const { mode, dryRun, received, added } = trail.json().entries[0].details;
      assert.deepEqual({ mode, dryRun, received, added }, { mode: 'merge', dryRun: true, received: 1, added: ['049999999'] });
    });
  });
}
