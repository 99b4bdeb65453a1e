import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, beforeEach, describe, it } from 'node:test';
import { loadDefaultBanks } from '../../../banks/default-banks.js';
import { projectFile } from '../../../project-root.js';
import { testBackends } from '../../../../test/support/test-databases.js';
import { startTestGateway, TEST_ADMIN_TOKEN, type TestGateway } from '../../../../test/support/test-gateway.js';

for (const backend of testBackends()) {
  describe(`admin banks on ${backend.name}`, () => {
    let t: TestGateway;
    let token: string;
    before(async () => {
      // The registry merge's additions are tested as BANKS_AUTO_ADMIT publishes them (test/banks/bank-admission.test.ts: the review queue).
      t = await startTestGateway(backend, { env: { BANKS_AUTO_ADMIT: 'true' } });
      const partner = await t.addPartner();
      token = (await t.app.inject({ method: 'POST', url: '/api/v1/login/', payload: partner })).json().access_token;
    });
    after(() => t.close());
    beforeEach(async () => {
      await t.gateway.admin.banks.replaceAll({ banks: loadDefaultBanks() });
    });

    const headers = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };
    const admin = (method: string, url: string, payload?: unknown, contentType?: string) =>
      t.admin.inject({
        method: method as 'GET',
        url,
        headers: { ...headers, ...(contentType ? { 'content-type': contentType } : {}) },
        ...(payload === undefined ? {} : { payload: payload as string }),
      });
    const publicBanks = async () =>
      (await t.app.inject({ method: 'POST', url: '/partner/provider/sbp/banks/', headers: { authorization: `Bearer ${token}` } })).json().banks as Array<{ bic: string; name: string }>;

    it('shows the extra fields (English name, SBP member id) that the public list leaves out', async () => {
      const response = await admin('GET', '/admin/v1/banks');
      assert.equal(response.statusCode, 200);
      const first = response.json().banks[0];
      assert.deepEqual({ bic: first.bic, name: first.name, nameEn: first.nameEn, sbpMemberId: first.sbpMemberId }, {
        bic: '044525225',
        name: 'Сбербанк',
        nameEn: 'Sberbank',
        sbpMemberId: '100000000111',
      });
      assert.deepEqual(Object.keys((await publicBanks())[0]!).sort(), ['bic', 'name']);
    });

    it('replaces the whole list atomically, and the partner sees the new list in its order', async () => {
      const response = await admin('PUT', '/admin/v1/banks', { banks: [{ bic: '044525974', name: 'Т-Банк' }, { bic: '044525225', name: 'Сбер' }] });
      assert.equal(response.statusCode, 200);
      assert.deepEqual(response.json().changed, ['044525974', '044525225'], 'a dropped English name is a change too');
      assert.equal(response.json().removed.length, 37);
      assert.deepEqual(await publicBanks(), [
        { bic: '044525974', name: 'Т-Банк' },
        { bic: '044525225', name: 'Сбер' },
      ]);
    });

    it('refuses a replacement with any bad entry, lists every one, and changes nothing', async () => {
      const response = await admin('PUT', '/admin/v1/banks', {
        banks: [{ bic: '044525225', name: 'OK' }, { bic: 44525974, name: 'Number' }, { bic: '123', name: '' }, { bic: '044525225', name: 'Dup' }],
      });
      assert.equal(response.statusCode, 422);
      assert.deepEqual(
        response.json().errors.map((error: { field: string }) => error.field),
        ['banks[1].bic', 'banks[2].bic', 'banks[2].name', 'banks[3].bic'],
      );
      assert.match(response.json().errors[0].message, /not a number/);
      assert.equal((await publicBanks()).length, 39);
    });

    it('adds and removes one bank, with 409 and 404 for the impossible cases', async () => {
      const added = await admin('POST', '/admin/v1/banks', { bic: '044030001', name: 'Новый банк' });
      assert.equal(added.statusCode, 201);
      assert.equal((await publicBanks()).at(-1)?.bic, '044030001');
      assert.equal((await admin('POST', '/admin/v1/banks', { bic: '044030001', name: 'Again' })).statusCode, 409);
      const bad = await admin('POST', '/admin/v1/banks', { bic: '0440300', name: 'Short' });
      assert.equal(bad.statusCode, 422);
      assert.equal(bad.json().errors[0].field, 'bic');
      assert.equal((await admin('DELETE', '/admin/v1/banks/044030001')).statusCode, 204);
      assert.equal((await admin('DELETE', '/admin/v1/banks/044030001')).statusCode, 404);
    });

    it('when a bank body or path holds a BIC the documented pattern refuses (padded, short), then 422 names bic in the bank checks\' words, and nothing changes', async () => {
      for (const body of [{ bic: ' 044030001 ', name: 'Padded' }, { bic: '0440300', name: 'Short' }]) {
        const refused = await admin('POST', '/admin/v1/banks', body);
        assert.equal(refused.statusCode, 422, JSON.stringify(body));
        assert.deepEqual(refused.json().errors, [{ field: 'bic', message: 'must be a string of 9 digits starting with 04' }]);
      }
      const padded = await admin('PUT', '/admin/v1/banks', { banks: [{ bic: '044525225 ', name: 'Padded' }] });
      assert.deepEqual(padded.json().errors, [{ field: 'banks[0].bic', message: 'must be a string of 9 digits starting with 04' }]);
      for (const method of ['PATCH', 'DELETE'] as const) {
        const path = await admin(method, '/admin/v1/banks/0440300', method === 'PATCH' ? { position: 1 } : undefined);
        assert.equal(path.statusCode, 422, method);
        assert.deepEqual(path.json().errors, [{ field: 'bic', message: 'must be a string of 9 digits starting with 04' }]);
      }
      assert.equal((await publicBanks()).length, 39);
    });

    it('when the real ED807 directory is imported, then it is merged: new SBP head offices added, registry names recorded, display names kept', async () => {
      const response = await admin('POST', '/admin/v1/banks/import', readFileSync(projectFile('../shared/data/20230518_ED807_full.xml')), 'application/xml');
      assert.equal(response.statusCode, 200, response.body);
      const report = response.json();
      assert.equal(report.received, 214);
      // The 11 the default exclusion rules keep out (non-bank credit organisations, the Interstate Bank) stay out.
      assert.equal(report.added.length, 214 - 39 - 11);
      assert.equal(report.queued, 11);
      assert.equal(report.changed.length, 39, 'the registry names of the 39 curated banks are recorded');
      assert.deepEqual(report.removed, []);
      const banks = await publicBanks();
      assert.equal(banks.length, 214 - 11);
      assert.deepEqual(banks[0], { name: 'Сбербанк', bic: '044525225' }, 'the curated display name and first place stay');
    });

    it('when a bank is edited, then its curated fields change in place, and a bad value, an unknown BIC or an empty edit is refused', async () => {
      const edited = await admin('PATCH', '/admin/v1/banks/044525225', { name: ' Сбер ', sbpMemberId: null });
      assert.equal(edited.statusCode, 200, edited.body);
      assert.deepEqual(edited.json().changes[0].fields, [
        { field: 'name', old: 'Сбербанк', new: 'Сбер' },
        { field: 'sbpMemberId', old: '100000000111', new: null },
      ]);
      assert.deepEqual((await publicBanks())[0], { name: 'Сбер', bic: '044525225' });
      assert.equal((await admin('PATCH', '/admin/v1/banks/044525225', { name: 'Bad\u0007name' })).statusCode, 422);
      assert.equal((await admin('PATCH', '/admin/v1/banks/044525225', { sbpMemberId: '123' })).statusCode, 422);
      assert.equal((await admin('PATCH', '/admin/v1/banks/044525225', {})).statusCode, 422);
      assert.equal((await admin('PATCH', '/admin/v1/banks/049999999', { name: 'Nobody' })).statusCode, 404);
      assert.equal((await admin('PATCH', '/admin/v1/banks/044525225?baseVersion=1', { name: 'Old base' })).statusCode, 409);
    });

    it('when a CSV is imported, then it is merged: its curated names set, new banks added at the end, nothing removed', async () => {
      const csv = 'bic,name\n044525225,Сбербанк России\n049999999,Банк Тест\n';
      const response = await admin('POST', '/admin/v1/banks/import', csv, 'text/csv');
      assert.equal(response.statusCode, 200);
      const { received, added, changed, removed } = response.json();
      assert.deepEqual({ received, added, changed, removed }, { received: 2, added: ['049999999'], changed: ['044525225'], removed: [] });
      assert.deepEqual(response.json().changes[0].fields, [{ field: 'name', old: 'Сбербанк', new: 'Сбербанк России' }], 'no member-id column: member ids untouched');
      const banks = await publicBanks();
      assert.equal(banks.length, 40);
      assert.equal(banks[0]?.name, 'Сбербанк России');
      assert.equal(banks.at(-1)?.bic, '049999999');
    });

    it('refuses an import with a bad row whole, naming its line, and an unsupported type with 415', async () => {
      const response = await admin('POST', '/admin/v1/banks/import', 'bic,name\n044525225,Ok\n4452522,Bad\n', 'text/csv');
      assert.equal(response.statusCode, 422);
      assert.equal(response.json().errors[0].field, 'line 3.bic');
      assert.match(response.json().description_status, /line 3\.bic/);
      assert.equal((await publicBanks()).length, 39);
      const json = await admin('POST', '/admin/v1/banks/import', JSON.stringify([{ bic: '044525225', name: 'A' }, { name: 'B' }]), 'application/json');
      assert.equal(json.statusCode, 422);
      assert.equal(json.json().errors[0].field, '[1].bic');
      const pdf = await admin('POST', '/admin/v1/banks/import', '%PDF', 'application/pdf');
      assert.equal(pdf.statusCode, 415);
      const empty = await admin('POST', '/admin/v1/banks/import', '[]', 'application/json');
      assert.equal(empty.statusCode, 422);
    });

    it('when a JSON file replaces the list, then only with confirm=true, and banks it leaves out are removed', async () => {
      const file = JSON.stringify({ banks: [{ bic: '044525225', name: 'Сбербанк' }] });
      const unconfirmed = await admin('POST', '/admin/v1/banks/import?mode=replace', file, 'application/json');
      assert.equal(unconfirmed.statusCode, 422);
      assert.match(unconfirmed.json().description_status, /confirm/);
      assert.equal((await publicBanks()).length, 39);
      const response = await admin('POST', '/admin/v1/banks/import?mode=replace&confirm=true', file, 'application/json');
      assert.equal(response.statusCode, 200);
      assert.equal(response.json().removed.length, 38);
      const bare = await admin('POST', '/admin/v1/banks/import', JSON.stringify([{ bic: '044525974', name: 'Т-Банк' }]), 'application/json');
      assert.equal(bare.statusCode, 200, 'a bare array is read too');
    });
  });
}
