import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { AUDIT_CSV_COLUMNS } from '@partner-gateway/contract/admin-audit';
import { testBackends } from '../../../../test/support/test-databases.js';
import { startTestGateway, type TestGateway, type TestOperator } from '../../../../test/support/test-gateway.js';

for (const backend of testBackends()) {
  describe(`GET /admin/v1/audit/export on ${backend.name}`, () => {
    let t: TestGateway;
    let security: TestOperator;
    const from = new Date(Date.now() - 60_000).toISOString();
    before(async () => {
      t = await startTestGateway(backend);
      security = await t.addOperator('security', { name: 'auditor-ann' });
      const operator = await t.addOperator('operator', { name: 'ops, "quoted"' });
      await t.admin.inject({ method: 'POST', url: '/admin/v1/banks', headers: operator.headers, payload: { bic: '049999991', name: 'Банк, "Экспорт"' } });
      // A claimed login is whatever a client sent: a spreadsheet must not read it as a formula.
      await t.app.inject({ method: 'POST', url: '/api/v1/login/', payload: { login: '=HYPERLINK("http://x")', password: 'wrong password here' } });
      await t.addPartner();
    });
    after(() => t.close());
    const exportAs = (format: string, range = { from, to: new Date(Date.now() + 60_000).toISOString() }, headers = security.headers) =>
      t.admin.inject({ method: 'GET', url: `/admin/v1/audit/export?from=${encodeURIComponent(range.from)}&to=${encodeURIComponent(range.to)}&format=${format}`, headers });

    it('when exported as JSON lines, then every entry of the range comes, oldest first, as the search shows it', async () => {
      const response = await exportAs('jsonl');
      assert.equal(response.statusCode, 200);
      assert.match(response.headers['content-type'] as string, /^application\/x-ndjson/);
      assert.match(response.headers['content-disposition'] as string, /^attachment; filename="audit-.*\.jsonl"$/);
      const lines = response.body.trimEnd().split('\n').map((line) => JSON.parse(line));
      // The search comes after: the export's own entry is the one it adds.
      const search = (await t.admin.inject({ method: 'GET', url: `/admin/v1/audit?from=${encodeURIComponent(from)}&limit=1000`, headers: security.headers })).json();
      const before = search.entries.filter((entry: { action: string }) => entry.action !== 'audit.export');
      assert.equal(before.length, search.entries.length - 1);
      assert.deepEqual(lines, [...before].sort((a, b) => a.at.localeCompare(b.at) || Number(a.id) - Number(b.id)));
      const added = lines.find((entry) => entry.action === 'bank.add');
      assert.deepEqual(added.operator.name, 'ops, "quoted"');
    });

    it('when exported as CSV, then cells are quoted as RFC 4180 says and a formula is defused', async () => {
      const response = await exportAs('csv');
      assert.equal(response.statusCode, 200);
      const [header, ...rows] = response.body.split('\r\n').filter((line) => line.length > 0);
      assert.equal(header, AUDIT_CSV_COLUMNS.join(','));
      const added = rows.find((row) => row.includes(',bank.add,'))!;
      assert.match(added, /,"ops, ""quoted""",token,/);
      assert.match(added, /"\{""after"":\{""bic"":""049999991"",""name"":""Банк, \\?""Экспорт\\?""""/);
      const login = rows.find((row) => row.includes(',login,failure,'))!;
      assert.match(login, /,"'=HYPERLINK\(""http:\/\/x""\)",/);
    });

    it('when exported, then the export is itself audited with its range, format and rows; and a bad range is refused', async () => {
      const response = await exportAs('jsonl');
      const rows = response.body.trimEnd().split('\n').length;
      await t.gateway.admin.audit.flush();
      const entry = (await t.admin.inject({ method: 'GET', url: '/admin/v1/audit?action=audit.export&limit=1', headers: security.headers })).json().entries[0];
      assert.equal(entry.details.rows, rows);
      assert.equal(entry.details.format, 'jsonl');
      assert.deepEqual(entry.operator, { id: security.id, name: 'auditor-ann', credential: 'token' });
      assert.equal((await exportAs('jsonl', { from, to: from })).statusCode, 422);
      assert.equal((await exportAs('xml')).statusCode, 422);
      assert.equal((await t.admin.inject({ method: 'GET', url: '/admin/v1/audit/export?format=csv', headers: security.headers })).statusCode, 422);
    });
  });
}
