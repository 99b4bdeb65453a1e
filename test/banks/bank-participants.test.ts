/**
 * Member ids from the settlement bank's participant list over real HTTP (issue 34, done-when test 4), on the real
 * May 2023 directory: the default list, the directory merged and 26 banks admitted; then a participant list of the
 * curated 39 and 20 admitted banks by BIC, 5 admitted banks by name only and one unknown participant. Member ids
 * are filled by BIC at once, the 5 are proposals applied only when confirmed (through maker-checker), every field
 * says where it came from (admin view and history), an operator's member id survives an import and a sync, and bad
 * lists are clear 4xx JSON errors.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { BankAdmissionQueue } from '@partner-gateway/contract/admin-bank-admissions';
import type { ParticipantsReport, ParticipantsStatus } from '@partner-gateway/contract/admin-bank-participants';
import type { AdminBank } from '@partner-gateway/contract/admin-banks';
import type { BankVersionView } from '@partner-gateway/contract/admin-bank-versions';
import { loadDefaultBanks } from '../../src/banks/default-banks.js';
import { ED807_MAY_2023 } from '../support/ed807-directory.js';
import { bankListClients } from '../support/bank-list-clients.js';
import { testBackends } from '../support/test-databases.js';
import { startTestGateway, TEST_ADMIN_TOKEN, type TestGateway, type TestOperator } from '../support/test-gateway.js';

const IMPORT_LIMIT = 1_048_576;
const memberId = (prefix: string, index: number) => `${prefix}${String(index).padStart(12 - prefix.length, '0')}`;

for (const backend of testBackends()) {
  describe(`participant list over HTTP on ${backend.name}`, () => {
    let served = { type: 'application/json', body: Buffer.alloc(0) };
    const source = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': served.type, 'content-length': served.body.length });
      response.end(served.body);
    });
    let t: TestGateway;
    let clients: Awaited<ReturnType<typeof bankListClients>>;
    let maker: TestOperator;
    let checker: TestOperator;
    const defaults = loadDefaultBanks();
    let byBic: Array<{ bic: string; name: string; nameEn: string | null }>;
    let byName: Array<{ bic: string; name: string }>;
    let unlisted: { bic: string; name: string };
    let list: Array<{ memberId: string; name: string; nameEn?: string; bic?: string }>;

    before(async () => {
      await new Promise<void>((resolve) => source.listen(0, '127.0.0.1', resolve));
      const base = `http://127.0.0.1:${(source.address() as AddressInfo).port}`;
      t = await startTestGateway(backend, { env: { BANKS_PARTICIPANTS_URL: `${base}/b2c/participants.json`, BANKS_IMPORT_MAX_BYTES: String(IMPORT_LIMIT) } });
      const api = await t.app.listen({ host: '127.0.0.1', port: 0 });
      const adminUrl = await t.admin.listen({ host: '127.0.0.1', port: 0 });
      clients = await bankListClients(t, api, adminUrl);
      maker = await t.addOperator('operator', { name: 'maker-mia' });
      checker = await t.addOperator('operator', { name: 'checker-chen' });
    });
    after(async () => {
      await t.close();
      await new Promise<void>((resolve) => source.close(() => resolve()));
    });

    const admin = (method: string, path: string, body?: object) => clients.admin(method, path, body === undefined ? undefined : JSON.stringify(body));
    const importList = (entries: object[], query = '') => clients.admin('POST', `/admin/v1/banks/participants/import${query}`, JSON.stringify(entries));
    const banks = async () => new Map(((await admin('GET', '/admin/v1/banks')).json.banks as AdminBank[]).map((bank) => [bank.bic, bank]));
    const status = async () => (await admin('GET', '/admin/v1/banks/participants')).json as ParticipantsStatus;

    it('when the May 2023 directory is merged and 26 queued banks are admitted, then partners receive 65 banks', async () => {
      assert.equal((await clients.admin('POST', '/admin/v1/banks/import', readFileSync(ED807_MAY_2023), 'application/xml')).status, 200);
      const queue = (await admin('GET', '/admin/v1/banks/admissions')).json as BankAdmissionQueue;
      const admitted = queue.banks.filter((bank) => bank.state === 'pending').slice(0, 26);
      assert.equal((await admin('POST', '/admin/v1/banks/admissions/admit', { banks: admitted.map((bank) => ({ bic: bank.bic })) })).status, 200);
      const shown = admitted.map((bank) => ({ bic: bank.bic, name: bank.suggestedName, nameEn: bank.nameEn }));
      byBic = shown.slice(0, 20);
      byName = shown.slice(20, 25);
      unlisted = shown[25]!;
      const partners = JSON.parse((await clients.partnerBanks()).bytes.toString('utf8')) as { banks: unknown[] };
      assert.equal(partners.banks.length, 65);
    });

    it('when a list of the curated 39 and 20 admitted banks by BIC and 5 by name only is imported, then member ids are filled by BIC at once, the 5 are proposed and nothing else, and the partners\u2019 body is unchanged', async () => {
      list = [
        ...defaults.map((bank) => ({ memberId: bank.sbpMemberId!, name: bank.name, bic: bank.bic })),
        ...byBic.map((bank, index) => ({ memberId: memberId('2', index), name: bank.name, nameEn: `Bank ${index}`, bic: bank.bic })),
        // By name only: the registry's legal form, other quotes and upper case, as a settlement bank may write it.
        ...byName.map((bank, index) => ({ memberId: memberId('3', index), name: `АО «${bank.name.toUpperCase()}»` })),
        { memberId: memberId('4', 1), name: 'Банк, которого нет в списке' },
      ];
      const bodyBefore = (await clients.partnerBanks()).bytes;
      const preview = await importList(list, '?dryRun=true');
      assert.equal(preview.status, 200, JSON.stringify(preview.json));
      assert.equal(preview.json.applied, false);
      assert.equal((await banks()).get(byBic[0]!.bic)!.sbpMemberId, null, 'a dry run changes nothing');

      const imported = await importList(list);
      assert.equal(imported.status, 200, JSON.stringify(imported.json).slice(0, 500));
      const report = imported.json as ParticipantsReport;
      assert.deepEqual([report.applied, report.received, report.matchedByBic, report.matchedByMemberId], [true, 65, 59, 0]);
      assert.deepEqual(report.proposals.map((proposal) => [proposal.bic, proposal.memberId, proposal.status]), byName.map((bank, index) => [bank.bic, memberId('3', index), 'pending']));
      assert.deepEqual(report.unmatchedParticipants.map((entry) => entry.memberId), [memberId('4', 1)]);
      assert.deepEqual(report.unmatchedBanks.map((bank) => bank.bic), [unlisted.bic]);

      const now = await banks();
      byBic.forEach((bank, index) => {
        const shown = now.get(bank.bic)!;
        assert.equal(shown.sbpMemberId, memberId('2', index));
        assert.deepEqual([shown.sources.sbpMemberId?.source, shown.sources.sbpMemberId?.by.name, shown.participantsListed], ['participants', 'bootstrap', true]);
        assert.deepEqual([shown.sources.name?.source, shown.sources.sbpParticipant?.source], ['registry', 'registry'], 'the suggested name came from the registry');
        // The registry's Latin name stays; a bank the registry gave none takes the participant's.
        assert.deepEqual([shown.nameEn, shown.sources.nameEn?.source], bank.nameEn ? [bank.nameEn, 'registry'] : [`Bank ${index}`, 'participants']);
      });
      for (const bank of defaults) assert.equal(now.get(bank.bic)!.sources.sbpMemberId?.source, 'participants', 'the list confirms the curated member ids');
      for (const bank of byName) assert.deepEqual([now.get(bank.bic)!.sbpMemberId, now.get(bank.bic)!.sources.sbpMemberId], [null, undefined], 'a name match waits for an operator');
      assert.equal(now.get(unlisted.bic)!.participantsListed, false);
      assert.ok((await clients.partnerBanks()).bytes.equals(bodyBefore), 'names and order untouched: partners get the same body');
      const withIds = JSON.parse((await clients.partnerBanks('?fields=sbpMemberId')).bytes.toString('utf8')) as { banks: Array<{ sbpMemberId: string | null }> };
      assert.equal(withIds.banks.filter((bank) => bank.sbpMemberId !== null).length, 59);

      const version = (await admin('GET', `/admin/v1/banks/versions/${report.version}`)).json as BankVersionView;
      assert.equal(version.source, 'participants');
      const change = version.changes.find((found) => found.bic === byBic[0]!.bic)!;
      const memberChange = change.fields.find((field) => field.field === 'sbpMemberId')!;
      assert.deepEqual([memberChange.old, memberChange.new, memberChange.source?.source], [null, memberId('2', 0), 'participants'], 'the history diff names the source');
      assert.deepEqual((await status()).proposals.map((proposal) => proposal.bic), byName.map((bank) => bank.bic).sort());
    });

    it('when the 5 proposals are confirmed under maker-checker, then nothing changes until another operator approves, and then each bank has its member id from the participants, confirmed by its proposer', async () => {
      assert.equal((await admin('PUT', '/admin/v1/approvals/settings', { required: ['banks.participants.confirm'] })).status, 200);
      const call = (who: TestOperator, url: string, payload?: object) => t.admin.inject({ method: 'POST', url, headers: who.headers, ...(payload ? { payload } : {}) });
      const proposed = await call(maker, '/admin/v1/banks/participants/proposals/confirm', { bics: byName.map((bank) => bank.bic) });
      assert.equal(proposed.statusCode, 202, proposed.body);
      assert.deepEqual([proposed.json().action, proposed.json().preview.changed], ['banks.participants.confirm', 5]);
      assert.equal((await banks()).get(byName[0]!.bic)!.sbpMemberId, null, 'not applied before approval');
      const approved = await call(checker, `/admin/v1/approvals/${proposed.json().id}/approve`);
      assert.equal(approved.statusCode, 200, approved.body);
      const now = await banks();
      byName.forEach((bank, index) => {
        const shown = now.get(bank.bic)!;
        assert.deepEqual([shown.sbpMemberId, shown.sources.sbpMemberId?.source, shown.sources.sbpMemberId?.by.name, shown.participantsListed], [memberId('3', index), 'participants', 'maker-mia', true]);
      });
      assert.deepEqual((await status()).proposals, [], 'confirmed proposals are gone');
      assert.equal((await admin('PUT', '/admin/v1/approvals/settings', { required: [] })).status, 200);
      await t.gateway.admin.audit.flush();
      const audit = await admin('GET', '/admin/v1/audit?action=banks.participants.confirm');
      assert.ok(audit.json.entries.some((entry: { details?: { confirmed?: string[] } }) => entry.details?.confirmed?.includes(byName[0]!.bic)), 'audited with what it confirmed');
    });

    it('when the list is read again, then the confirmed banks match by their member ids; a rejected name match is never proposed again', async () => {
      const again = await importList([...list, { memberId: memberId('5', 1), name: `ООО "${unlisted.name}"` }]);
      assert.equal(again.status, 200, JSON.stringify(again.json).slice(0, 500));
      assert.deepEqual([again.json.matchedByBic, again.json.matchedByMemberId], [59, 5]);
      assert.deepEqual(again.json.proposals.map((proposal: { bic: string }) => proposal.bic), [unlisted.bic]);
      const rejected = await admin('POST', '/admin/v1/banks/participants/proposals/reject', { bics: [unlisted.bic] });
      assert.deepEqual([rejected.status, rejected.json], [200, { changed: [unlisted.bic], unchanged: [] }]);
      const third = await importList([...list, { memberId: memberId('5', 1), name: `ООО "${unlisted.name}"` }]);
      assert.deepEqual([third.json.proposals.length, third.json.unmatchedParticipants.map((entry: { memberId: string }) => entry.memberId)], [0, [memberId('4', 1), memberId('5', 1)]]);
      assert.equal((await status()).proposals.find((proposal) => proposal.bic === unlisted.bic)?.status, 'rejected');
      assert.equal((await admin('POST', '/admin/v1/banks/participants/proposals/confirm', { bics: [unlisted.bic] })).status, 404, 'a rejected proposal cannot be confirmed');
    });

    it('when an operator sets a member id, then neither a participants import nor a sync changes it, and the answer says what was offered', async () => {
      const target = byBic[3]!.bic;
      assert.equal((await admin('PATCH', `/admin/v1/banks/${target}`, { sbpMemberId: '999999999999' })).status, 200);
      const imported = await importList(list);
      assert.equal(imported.status, 200);
      assert.deepEqual(imported.json.keptOperatorValues, [{ bic: target, field: 'sbpMemberId', kept: '999999999999', offered: memberId('2', 3) }]);
      served = { type: 'application/json', body: Buffer.from(JSON.stringify({ participants: list })) };
      const run = await admin('POST', '/admin/v1/banks/participants/sync');
      assert.equal(run.status, 200, JSON.stringify(run.json));
      assert.deepEqual([run.json.trigger, run.json.source], ['manual', `http://127.0.0.1:${(source.address() as AddressInfo).port}/b2c/participants.json`]);
      const shown = (await banks()).get(target)!;
      assert.deepEqual([shown.sbpMemberId, shown.sources.sbpMemberId?.source, shown.sources.sbpMemberId?.by.name], ['999999999999', 'operator', 'bootstrap']);
    });

    it('when a list is oversized, malformed or of another type, or the synced list cannot be read, then the answer is a clear 4xx (or 502) JSON error and nothing changes', async () => {
      const version = (await admin('GET', '/admin/v1/banks')).json.version;
      const malformed = await importList([{ memberId: 100000000111, name: 'Сбербанк', bic: '044525225' }, { memberId: '12345', name: '' }, { memberId: '100000000002', name: 'B', bic: '4452' }]);
      assert.equal(malformed.status, 422);
      assert.deepEqual(malformed.json.errors.map((error: { field: string }) => error.field), ['[0].memberId', '[1].memberId', '[1].name', '[2].bic']);
      assert.match(malformed.json.description_status, /^The request contains invalid data \(\[0\]\.memberId: must be a string, not a number/);
      const notJson = await clients.admin('POST', '/admin/v1/banks/participants/import', '[{"memberId":', 'application/json');
      assert.deepEqual([notJson.status, notJson.json.errors[0].field], [422, 'body']);
      assert.equal((await clients.admin('POST', '/admin/v1/banks/participants/import', '<xml/>', 'application/xml')).status, 415);
      // Over TCP the gateway answers a too-long body early and may reset the upload; the exact answer by injection.
      const oversized = await t.admin.inject({ method: 'POST', url: '/admin/v1/banks/participants/import', headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'text/csv' }, payload: Buffer.alloc(IMPORT_LIMIT + 1, 'a') });
      assert.equal(oversized.statusCode, 413);
      assert.equal(oversized.json().description_status, 'The file is larger than the import limit of 1 MiB (BANKS_IMPORT_MAX_BYTES); nothing was changed: send a smaller file');
      served = { type: 'application/json', body: Buffer.from('{"participants": "none"}') };
      const failed = await admin('POST', '/admin/v1/banks/participants/sync');
      assert.equal(failed.status, 502);
      assert.match(failed.json.description_status, /^The participant list sync failed \(run \d+\): The request contains invalid data .*participants array/);
      assert.deepEqual([(await status()).runs[0]!.outcome, (await admin('GET', '/admin/v1/banks')).json.version], ['failed', version]);
      assert.equal(await t.gateway.runtime.syncParticipantsIfDue(), undefined, 'a failed run is tried again after a tenth of the interval, not at the next check');
    });

    it('when the list names a queued bank by BIC, then the queue shows its member id and admitting the bank carries it, sourced from the participants', async () => {
      const queued = ((await admin('GET', '/admin/v1/banks/admissions')).json as BankAdmissionQueue).banks.find((bank) => bank.state === 'pending')!;
      const imported = await importList([...list, { memberId: memberId('6', 1), name: queued.suggestedName, bic: queued.bic }]);
      assert.equal(imported.status, 200);
      assert.ok(imported.json.unmatchedParticipants.some((entry: { bic: string | null }) => entry.bic === queued.bic), 'not a bank of the list yet');
      const shown = ((await admin('GET', '/admin/v1/banks/admissions')).json as BankAdmissionQueue).banks.find((bank) => bank.bic === queued.bic)!;
      assert.equal(shown.sbpMemberId, memberId('6', 1));
      assert.equal((await admin('POST', '/admin/v1/banks/admissions/admit', { banks: [{ bic: queued.bic }] })).status, 200);
      const admitted = (await banks()).get(queued.bic)!;
      assert.deepEqual([admitted.sbpMemberId, admitted.sources.sbpMemberId?.source, admitted.sources.name?.source], [memberId('6', 1), 'participants', 'registry']);
    });
  });
}
