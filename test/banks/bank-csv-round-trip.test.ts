/**
 * The CSV round trip of the curated fields over real HTTP (issue 34, done-when 5), as an operator does it with a
 * spreadsheet: the published list exported, ten banks renamed in a semicolon-separated file with a BOM and CRLF,
 * the import previewed (those ten names and nothing else; a stray row reported, not added), proposed by one
 * operator, approved by another and applied as exactly one new version that partners receive.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parse } from 'csv-parse/sync';
import { loadDefaultBanks } from '../../src/banks/default-banks.js';
import { csvCell } from '../../src/csv/csv-cell.js';
import { bankListClients } from '../support/bank-list-clients.js';
import { testBackends } from '../support/test-databases.js';
import { startTestGateway, TEST_ADMIN_TOKEN, type TestGateway, type TestOperator } from '../support/test-gateway.js';

/** A CSV as a spreadsheet in a Russian locale saves it: a BOM, `;` between cells, CRLF. */
function asSpreadsheetSaves(rows: string[][]): Buffer {
  return Buffer.from(`\ufeff${rows.map((row) => row.map((cell) => csvCell(cell, ';')).join(';')).join('\r\n')}\r\n`, 'utf8');
}

for (const backend of testBackends()) {
  describe(`the bank list's CSV round trip over HTTP on ${backend.name}`, () => {
    let t: TestGateway;
    let adminUrl: string;
    let clients: Awaited<ReturnType<typeof bankListClients>>;
    let maker: TestOperator;
    let checker: TestOperator;
    const defaults = loadDefaultBanks();

    before(async () => {
      t = await startTestGateway(backend);
      const api = await t.app.listen({ host: '127.0.0.1', port: 0 });
      adminUrl = await t.admin.listen({ host: '127.0.0.1', port: 0 });
      clients = await bankListClients(t, api, adminUrl);
      maker = await t.addOperator('operator', { name: 'maker-mia' });
      checker = await t.addOperator('operator', { name: 'checker-chen' });
    });
    after(() => t.close());

    const call = async (who: { authorization: string }, method: string, path: string, body?: Buffer, contentType = 'text/csv') => {
      const response = await fetch(`${adminUrl}${path}`, { method, headers: { ...who, ...(body ? { 'content-type': contentType } : {}) }, ...(body ? { body } : {}) });
      const bytes = Buffer.from(await response.arrayBuffer());
      const text = bytes.toString('utf8');
      return { status: response.status, headers: response.headers, bytes, text, json: () => JSON.parse(text) };
    };
    const bootstrap = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };
    const partnerNames = async () => (JSON.parse((await clients.partnerBanks()).bytes.toString('utf8')) as { banks: Array<{ bic: string; name: string }> }).banks;

    it('when the list is exported, then it is a CSV a spreadsheet opens: BOM, header of the curated fields, one bank a line in order, CRLF, the version named', async () => {
      const exported = await call(bootstrap, 'GET', '/admin/v1/banks/export?separator=%3B');
      assert.equal(exported.status, 200, exported.text);
      assert.equal(exported.headers.get('content-type'), 'text/csv; charset=utf-8');
      assert.equal(exported.headers.get('content-disposition'), `attachment; filename="banks-v${exported.headers.get('x-bank-list-version')}.csv"`);
      assert.ok(exported.bytes.subarray(0, 3).equals(Buffer.from([0xef, 0xbb, 0xbf])), 'a UTF-8 byte-order mark');
      assert.ok(exported.text.startsWith('\ufeffbic;name;nameEn;sbpMemberId;nameSource;nameEnSource;sbpMemberIdSource\r\n'), 'the curated fields, then where each came from (read-only)');
      assert.ok(exported.text.endsWith('\r\n') && !/[^\r]\n/.test(exported.text), 'CRLF line ends');
      const rows = parse(exported.text, { delimiter: ';', bom: true, columns: true }) as Array<Record<string, string>>;
      assert.deepEqual(rows.map((row) => [row.bic, row.name]), defaults.map((bank) => [bank.bic, bank.name]));
      assert.equal((await call(bootstrap, 'GET', '/admin/v1/banks/export?separator=tab')).status, 422, 'a bad separator is a clear JSON error');
    });

    it('when ten banks are renamed in the spreadsheet and it is imported with mode=curate, then the preview shows those ten names and nothing else, a stray row is reported, and one approval makes exactly one new version partners receive', async () => {
      const settings = await call(bootstrap, 'PUT', '/admin/v1/approvals/settings', Buffer.from(JSON.stringify({ required: ['banks.import'] })), 'application/json');
      assert.equal(settings.status, 200, settings.text);
      const exported = await call(maker.headers, 'GET', '/admin/v1/banks/export?separator=%3B');
      const base = Number(exported.headers.get('x-bank-list-version'));
      const [header, ...rows] = parse(exported.text, { delimiter: ';', bom: true }) as string[][];
      const renamed = new Map(rows.slice(5, 15).map((row) => [row[0]!, `${row[1]} (переименован)`]));
      // A source cell typed over is read past: it changes nothing.
      const edited = rows.map((row) => (renamed.has(row[0]!) ? [row[0]!, renamed.get(row[0]!)!, ...row.slice(2, 4), 'operator someone-else 2020-01-01T00:00:00.000Z', ...row.slice(5)] : row));
      const file = asSpreadsheetSaves([header!, ...edited, ['049999999', 'Банк не из списка', '', '', '', '', '']]);
      const query = `/admin/v1/banks/import?mode=curate&baseVersion=${base}&fileName=banks.csv`;

      const preview = await call(maker.headers, 'POST', `${query}&dryRun=true`, file);
      assert.equal(preview.status, 200, preview.text);
      const report = preview.json();
      assert.deepEqual([report.applied, report.baseVersion, report.received, report.added, report.removed, report.unknown], [false, base, rows.length + 1, [], [], ['049999999']]);
      assert.deepEqual(report.changed.sort(), [...renamed.keys()].sort());
      for (const change of report.changes) {
        assert.deepEqual(change.fields, [{ field: 'name', old: defaults.find((bank) => bank.bic === change.bic)!.name, new: renamed.get(change.bic) }], change.bic);
      }

      const before = await clients.partnerBanks();
      const proposed = await call(maker.headers, 'POST', query, file);
      assert.equal(proposed.status, 202, proposed.text);
      const proposal = proposed.json();
      assert.deepEqual([proposal.action, proposal.preview.changed, proposal.preview.added, proposal.preview.removed, proposal.preview.unknown], ['banks.import', 10, 0, 0, ['049999999']]);
      assert.ok((await clients.partnerBanks()).bytes.equals(before.bytes), 'nothing changes before the approval');
      assert.equal((await call(maker.headers, 'POST', `/admin/v1/approvals/${proposal.id}/approve`)).status, 403, 'the proposer cannot approve it');

      const approved = await call(checker.headers, 'POST', `/admin/v1/approvals/${proposal.id}/approve`);
      assert.equal(approved.status, 200, approved.text);
      const versions = (await call(bootstrap, 'GET', '/admin/v1/banks/versions?limit=3')).json().versions as Array<{ number: number; source: string; changed: number; fileName: string | null; author: { name: string }; approver: { name: string } | null }>;
      assert.deepEqual(versions.filter((version) => version.number > base).map((version) => [version.number, version.source, version.changed, version.fileName, version.author.name, version.approver?.name]), [
        [base + 1, 'import', 10, 'banks.csv', 'maker-mia', 'checker-chen'],
      ]);
      const after = await clients.partnerBanks();
      assert.equal(Number(after.version), base + 1);
      const names = await partnerNames();
      assert.deepEqual(names.map((bank) => bank.bic), defaults.map((bank) => bank.bic), 'same banks, same order: nothing added');
      assert.deepEqual(names.map((bank) => bank.name), defaults.map((bank) => renamed.get(bank.bic) ?? bank.name));
      // The next export says where each renamed name came from: the operator whose file it was, when it applied.
      const again = parse((await call(bootstrap, 'GET', '/admin/v1/banks/export')).text, { bom: true, columns: true }) as Array<Record<string, string>>;
      for (const row of again) assert.match(row.nameSource!, renamed.has(row.bic!) ? /^operator maker-mia \d{4}-\d\d-\d\dT/ : /^$/, row.bic);
      await t.gateway.admin.audit.flush();
      const audit = (await call(bootstrap, 'GET', '/admin/v1/audit?action=banks.import')).json().entries as Array<{ details?: { mode?: string; unknown?: string[]; version?: number } }>;
      assert.ok(audit.some((entry) => entry.details?.mode === 'curate' && entry.details.version === base + 1 && entry.details.unknown?.[0] === '049999999'), JSON.stringify(audit));
    });

    it('when the spreadsheet turned a BIC into a number, then the import is a 422 naming the line and the lost zero, and nothing changes', async () => {
      const version = (await clients.partnerBanks()).version;
      const file = asSpreadsheetSaves([['bic', 'name', 'nameEn', 'sbpMemberId'], ['44525225', 'Сбербанк', '', '100000000111']]);
      const refused = await call(bootstrap, 'POST', '/admin/v1/banks/import?mode=curate&dryRun=true', file);
      assert.equal(refused.status, 422, refused.text);
      assert.deepEqual(refused.json().errors.map((problem: { field: string }) => problem.field), ['line 2.bic']);
      assert.match(refused.json().errors[0].message, /044525225 without its leading 0/);
      const registry = await call(bootstrap, 'POST', '/admin/v1/banks/import?mode=curate&dryRun=true', Buffer.from('<ED807 xmlns="urn:cbr-ru:ed:v2.0"/>'), 'application/xml');
      assert.equal(registry.status, 422, registry.text);
      assert.equal((await clients.partnerBanks()).version, version);
    });
  });
}
