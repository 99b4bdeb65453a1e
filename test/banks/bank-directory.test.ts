import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { loadDefaultBanks } from '../../src/banks/default-banks.js';
import { changedDirectory, ED807_MAY_2023, excludedByDefault } from '../support/ed807-directory.js';
import { testBackends } from '../support/test-databases.js';
import { bankListClients } from '../support/bank-list-clients.js';
import { startSiblingGateway, startTestGateway, type TestGateway } from '../support/test-gateway.js';

/**
 * The bank directory over real HTTP (issue 24): the registry merge on the real May 2023 directory, a changed
 * directory as one version, a byte-identical restore, and concurrent edits on one base version.
 */
for (const backend of testBackends()) {
  describe(`bank directory over HTTP on ${backend.name}`, () => {
    let t: TestGateway;
    let sibling: TestGateway;
    let api: string;
    let adminUrl: string;
    let siblingAdminUrl: string;
    let admin: Awaited<ReturnType<typeof bankListClients>>['admin'];
    let partnerBanks: Awaited<ReturnType<typeof bankListClients>>['partnerBanks'];
    const defaults = loadDefaultBanks();
    before(async () => {
      // New SBP head offices published as the merge finds them (BANKS_AUTO_ADMIT); the review queue is test/banks/bank-admission.test.ts.
      t = await startTestGateway(backend, { env: { BANKS_AUTO_ADMIT: 'true' } });
      sibling = await startSiblingGateway(t, { env: { BANKS_AUTO_ADMIT: 'true' } });
      api = await t.app.listen({ host: '127.0.0.1', port: 0 });
      adminUrl = await t.admin.listen({ host: '127.0.0.1', port: 0 });
      siblingAdminUrl = await sibling.admin.listen({ host: '127.0.0.1', port: 0 });
      ({ admin, partnerBanks } = await bankListClients(t, api, adminUrl));
    });
    after(async () => {
      await sibling.close();
      await t.close();
    });

    const importXml = (bytes: Buffer, query = '') => admin('POST', `/admin/v1/banks/import${query}`, bytes, 'application/xml');

    let first: Awaited<ReturnType<typeof partnerBanks>>;

    it('when the gateway starts, then the shipped list is version 1 and partners get it with a strong ETag and its version', async () => {
      first = await partnerBanks();
      assert.equal(first.status, 200);
      assert.equal(first.version, '1');
      assert.match(first.etag ?? '', /^"[A-Za-z0-9_-]{43}"$/);
      assert.deepEqual(JSON.parse(first.bytes.toString('utf8')), { banks: defaults.map((bank) => ({ name: bank.name, bic: bank.bic })) });
      const again = await partnerBanks('', { 'if-none-match': first.etag! });
      assert.equal(again.status, 304, 'If-None-Match with the current ETag');
      assert.equal(again.bytes.length, 0);
    });

    it('when the May 2023 directory is previewed then imported over the default list, then the preview is what is applied, stayers keep curated names, member ids and order, and new SBP head offices are appended', async () => {
      const xml = readFileSync(ED807_MAY_2023);
      const preview = await importXml(xml, '?dryRun=true');
      assert.equal(preview.status, 200);
      assert.equal((await partnerBanks()).version, '1', 'a preview changes nothing');
      const applied = await importXml(xml, `?baseVersion=${preview.json.baseVersion}&fileName=20230518_ED807_full.xml`);
      assert.equal(applied.status, 200);
      assert.deepEqual(applied.json, { ...preview.json, applied: true, version: 2 });
      const { json } = await admin('GET', '/admin/v1/banks');
      const stayers = json.banks.slice(0, defaults.length);
      assert.deepEqual(
        stayers.map((bank: { bic: string; name: string; nameEn: string; sbpMemberId: string }) => [bank.bic, bank.name, bank.nameEn, bank.sbpMemberId]),
        defaults.map((bank) => [bank.bic, bank.name, bank.nameEn, bank.sbpMemberId]),
      );
      const excluded = excludedByDefault();
      assert.equal(excluded.size, 11);
      assert.equal(json.banks.length, 214 - excluded.size, 'every SBP head office but those the default rules exclude');
      assert.ok(json.banks.every((bank: { bic: string }) => !excluded.has(bank.bic)));
      const added = json.banks.slice(defaults.length);
      assert.deepEqual(added.map((bank: { bic: string }) => bank.bic), applied.json.added, 'appended, in the directory order');
      assert.ok(added.every((bank: { name: string; registryName: string; sbpMemberId: null }) => bank.name === bank.registryName && bank.sbpMemberId === null));
      const version = await admin('GET', '/admin/v1/banks/versions/2');
      assert.equal(version.json.source, 'import');
      assert.equal(version.json.fileName, '20230518_ED807_full.xml');
      assert.equal(version.json.author.name, 'bootstrap');
    });

    it('when a changed directory is imported (one leaves SBP, one joins, one renamed in the registry), then exactly those changes are one new version', async () => {
      const [, renamed, , , leaves] = defaults;
      const directory = changedDirectory({ leaves: leaves!.bic, joins: '047888728', renamed: renamed!.bic });
      const applied = await importXml(directory);
      assert.equal(applied.status, 200);
      assert.equal(applied.json.version, 3);
      const before = await admin('GET', '/admin/v1/banks/versions/2');
      const registryName = before.json.list.find((bank: { bic: string }) => bank.bic === renamed!.bic).registryName;
      assert.deepEqual(applied.json.changes, [
        { bic: renamed!.bic, name: renamed!.name, kind: 'changed', fields: [{ field: 'registryName', old: registryName, new: `${registryName} (renamed)` }] },
        {
          bic: '047888728',
          name: 'ИКБР "ЯРИНТЕРБАНК" (ООО)',
          kind: 'added',
          fields: [
            { field: 'name', old: null, new: 'ИКБР "ЯРИНТЕРБАНК" (ООО)' },
            { field: 'registryName', old: null, new: 'ИКБР "ЯРИНТЕРБАНК" (ООО)' },
            { field: 'sbpParticipant', old: null, new: true },
            { field: 'position', old: null, new: 203 },
          ],
        },
        applied.json.changes[2],
      ]);
      assert.deepEqual([applied.json.changes[2].bic, applied.json.changes[2].kind], [leaves!.bic, 'removed']);
      const page = await admin('GET', '/admin/v1/banks/versions?limit=2');
      assert.deepEqual(page.json.versions.map((version: { number: number }) => version.number), [3, 2]);
      const older = await admin('GET', `/admin/v1/banks/versions?limit=2&cursor=${page.json.nextCursor}`);
      assert.deepEqual(older.json.versions.map((version: { number: number }) => version.number), [1]);
      assert.equal(older.json.nextCursor, null);
      const kept = (await admin('GET', '/admin/v1/banks/versions/3')).json.changes as Array<{ kind: string; fields: Array<{ field: string; source?: { source: string } }> }>;
      // The history's diff is the answer's, each field the change set also naming its source (issue 34).
      const withoutSources = kept.map((change) => ({ ...change, fields: change.fields.map(({ source: _source, ...field }) => field) }));
      assert.deepEqual(withoutSources, applied.json.changes, 'the version keeps its diff');
      const joined = kept.find((change) => change.kind === 'added')!;
      assert.equal(joined.fields.find((field) => field.field === 'sbpParticipant')?.source?.source, 'registry', 'a registry fact names the registry as its source');
    });

    it('when version 1 is restored, then partners get byte for byte the body and ETag they got from version 1', async () => {
      const restored = await admin('POST', '/admin/v1/banks/versions/1/restore?comment=back%20to%20the%20shipped%20list');
      assert.equal(restored.status, 200);
      assert.equal(restored.json.version, 4);
      const now = await partnerBanks();
      assert.ok(now.bytes.equals(first.bytes), 'byte-identical body');
      assert.equal(now.etag, first.etag);
      assert.equal(now.version, '4');
      const version = await admin('GET', '/admin/v1/banks/versions/4');
      assert.deepEqual([version.json.source, version.json.restoredFrom, version.json.comment, version.json.etag], ['restore', 1, 'back to the shipped list', first.etag]);
    });

    it('when two edits are made at once on one base version, on two instances, then one is applied and the other gets 409 and changes nothing', async () => {
      const { json } = await admin('GET', '/admin/v1/banks');
      const base = json.version;
      const edit = (bic: string, url: string) => admin('PATCH', `/admin/v1/banks/${bic}?baseVersion=${base}`, JSON.stringify({ position: 1 }), 'application/json', url);
      const answers = await Promise.all([edit(defaults[10]!.bic, adminUrl), edit(defaults[20]!.bic, siblingAdminUrl)]);
      assert.deepEqual(answers.map((answer) => answer.status).sort(), [200, 409]);
      const refused = answers.find((answer) => answer.status === 409)!;
      assert.equal(refused.json.code ?? 'bank_list_changed', 'bank_list_changed');
      assert.match(refused.json.description_status, /has changed since version/);
      const after = await admin('GET', '/admin/v1/banks');
      assert.equal(after.json.version, base + 1, 'exactly one new version');
      const applied = answers.find((answer) => answer.status === 200)!;
      assert.equal(applied.json.changes.length, 1, 'a move is one position change');
      assert.equal((await admin('GET', `/admin/v1/banks/versions/${base + 1}`)).json.source, 'reorder');
    });

    it('when a partner asks for opt-in fields, then each bank carries them, null when unknown, and the default body stays name and bic', async () => {
      await admin('POST', '/admin/v1/banks', JSON.stringify({ bic: '044030999', name: 'Банк без id' }));
      const plain = await partnerBanks();
      assert.ok((JSON.parse(plain.bytes.toString('utf8')).banks as object[]).every((bank) => Object.keys(bank).join() === 'name,bic'));
      const withFields = await partnerBanks('?fields=sbpMemberId,nameEn');
      assert.equal(withFields.status, 200);
      const banks = JSON.parse(withFields.bytes.toString('utf8')).banks as Array<Record<string, unknown>>;
      assert.deepEqual(Object.keys(banks[0]!), ['name', 'bic', 'sbpMemberId', 'nameEn']);
      assert.deepEqual(banks.at(-1), { name: 'Банк без id', bic: '044030999', sbpMemberId: null, nameEn: null });
      assert.notEqual(withFields.etag, plain.etag);
      assert.equal((await partnerBanks('?fields=password')).status, 422);
    });
  });
}
