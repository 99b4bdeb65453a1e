/**
 * Admission over real HTTP (issue 34) on the real May 2023 directory: a registry merge publishes no new bank (the
 * partners' body stays byte for byte what it was) and queues every new SBP head office with a suggested name; a
 * bulk admit is one version; the default rules and an operator's BIC exclusion keep banks out across a later sync
 * of a changed directory; every decision is a checked action that can wait for a second operator.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import type { BankAdmissionQueue } from '@partner-gateway/contract/admin-bank-admissions';
import { loadDefaultBanks } from '../../src/banks/default-banks.js';
import { changedDirectory, ED807_MAY_2023 } from '../support/ed807-directory.js';
import { bankListClients } from '../support/bank-list-clients.js';
import { testBackends } from '../support/test-databases.js';
import { startTestGateway, type TestGateway, type TestOperator } from '../support/test-gateway.js';

/** Head offices of the May 2023 directory without SBP (active, unrestricted): what joins in the changed directory. */
const JOINERS: [string, string] = ['047888728', '043209706'];
const MONETA = '048860734';
const YOOMONEY = '044525444';

for (const backend of testBackends()) {
  describe(`bank admission over HTTP on ${backend.name}`, () => {
    let served: Buffer = Buffer.alloc(0);
    const source = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/xml', 'content-length': served.length });
      response.end(served);
    });
    let t: TestGateway;
    let clients: Awaited<ReturnType<typeof bankListClients>>;
    let maker: TestOperator;
    let checker: TestOperator;
    const defaults = loadDefaultBanks();

    before(async () => {
      await new Promise<void>((resolve) => source.listen(0, '127.0.0.1', resolve));
      const base = `http://127.0.0.1:${(source.address() as AddressInfo).port}`;
      t = await startTestGateway(backend, { env: { BANKS_SYNC_URL: `${base}/ed807.xml` } });
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
    const queue = async () => (await admin('GET', '/admin/v1/banks/admissions')).json as BankAdmissionQueue;
    const partnerBanks = async () => {
      const answer = await clients.partnerBanks();
      return { ...answer, banks: (JSON.parse(answer.bytes.toString('utf8')) as { banks: Array<{ name: string; bic: string }> }).banks };
    };

    let first: Awaited<ReturnType<typeof partnerBanks>>;
    let admitted: string[];

    it('when the May 2023 directory is merged into the default list, then partners get byte for byte the same body and 175 banks wait in the queue with suggested names', async () => {
      first = await partnerBanks();
      assert.equal(first.banks.length, defaults.length);
      const merged = await clients.admin('POST', '/admin/v1/banks/import', readFileSync(ED807_MAY_2023), 'application/xml');
      assert.equal(merged.status, 200, JSON.stringify(merged.json));
      assert.deepEqual([merged.json.added, merged.json.removed, merged.json.queued], [[], [], 175]);
      const now = await partnerBanks();
      assert.ok(now.bytes.equals(first.bytes), 'the partners\u2019 body is unchanged');
      assert.equal(now.etag, first.etag);

      const waiting = await queue();
      assert.equal(waiting.autoAdmit, false);
      assert.equal(waiting.banks.length, 175);
      assert.ok(waiting.banks.every((bank) => bank.suggestedName.length > 0 && !/["«»]/.test(bank.suggestedName) && !/^(ООО|АО|ПАО) /.test(bank.suggestedName)));
      const byBic = new Map(waiting.banks.map((bank) => [bank.bic, bank]));
      const ffin = waiting.banks.find((bank) => bank.registryName === 'ООО "ФФИН Банк"')!;
      assert.equal(ffin.suggestedName, 'ФФИН Банк');
      assert.equal(waiting.banks.find((bank) => bank.registryName === '"Банк "МБА-МОСКВА" ООО')!.suggestedName, 'Банк МБА-МОСКВА');
      assert.equal(byBic.get('044525466')!.nameEn, 'Joint stock company Commercial bank "RUSNARBANK" (JSC "RUSNARBANK")', 'the Latin name from the registry');

      const excluded = waiting.banks.filter((bank) => bank.state === 'excluded');
      assert.deepEqual(
        excluded.map((bank) => [bank.registryName, bank.excludedBy!.value]).sort(),
        [
          ['НКО "МОНЕТА" (ООО)', 'НКО'],
          ['НКО "ПЕРСПЕКТИВА" (ООО)', 'НКО'],
          ['НКО АО НРД', 'НКО'],
          ['Межгосударственный банк', 'Межгосударственный банк'],
          ['ООО "НКО "ЭЛЕКСИР"', 'НКО'],
          ['ООО НКО "МОБИ.Деньги"', 'НКО'],
          ['ООО НКО "МОБИЛЬНАЯ КАРТА"', 'НКО'],
          ['ООО НКО "ЮМани"', 'НКО'],
          ['ООО ПНКО "ЭЛПЛАТ"', 'ПНКО'],
          ['РНКО "Деньги.Мэйл.Ру" (ООО)', 'РНКО'],
          ['РНКО "ПЛАТЕЖНЫЙ ЦЕНТР" (ООО)', 'РНКО'],
        ].sort(),
      );
      assert.equal(waiting.excluded, excluded.length);
      assert.equal(waiting.pending, 175 - excluded.length);
      assert.equal(waiting.banks.find((bank) => bank.registryName === 'ООО КБ "СИНКО-БАНК"')!.state, 'pending', 'НКО inside a word is not the word');
    });

    it('when 20 queued banks are admitted at once with their suggested names, then partners receive 59 banks as one new version, and an excluded bank cannot be admitted', async () => {
      const before = await partnerBanks();
      const waiting = await queue();
      const pending = waiting.banks.filter((bank) => bank.state === 'pending');
      admitted = pending.slice(0, 20).map((bank) => bank.bic);
      const refused = await admin('POST', '/admin/v1/banks/admissions/admit', { banks: [{ bic: admitted[0] }, { bic: YOOMONEY }] });
      assert.equal(refused.status, 409);
      assert.match(refused.json.description_status, /Bank with BIC 044525444 is excluded \(non-bank credit organisation/);
      assert.equal((await admin('POST', '/admin/v1/banks/admissions/admit', { banks: [{ bic: '049999999' }] })).status, 404);

      const applied = await admin('POST', '/admin/v1/banks/admissions/admit', { banks: admitted.map((bic) => ({ bic })) });
      assert.equal(applied.status, 200, JSON.stringify(applied.json));
      assert.deepEqual(applied.json.added, admitted);
      const now = await partnerBanks();
      assert.equal(now.banks.length, 59);
      assert.equal(Number(now.version), Number(before.version) + 1, 'one new version');
      assert.deepEqual(now.banks.slice(0, 39), before.banks, 'appended at the end');
      assert.deepEqual(now.banks.slice(39), pending.slice(0, 20).map((bank) => ({ name: bank.suggestedName, bic: bank.bic })));
      const version = await admin('GET', `/admin/v1/banks/versions/${now.version}`);
      assert.deepEqual([version.json.source, version.json.added], ['admit', 20]);
      const after = await queue();
      assert.equal(after.banks.length, 155);
      assert.ok(after.banks.every((bank) => !admitted.includes(bank.bic)));
    });

    it('when an operator excludes a queued BIC, then it shows excluded with the reason; a published BIC cannot be excluded, and lifting the exclusion returns it to the queue', async () => {
      const target = (await queue()).banks.find((bank) => bank.state === 'pending')!.bic;
      assert.equal((await admin('POST', '/admin/v1/banks/admissions/exclude', { bics: [admitted[0]], reason: 'published' })).status, 409);
      const excluded = await admin('POST', '/admin/v1/banks/admissions/exclude', { bics: [target], reason: 'closing down' });
      assert.deepEqual([excluded.status, excluded.json], [200, { changed: [target], unchanged: [] }]);
      let shown = (await queue()).banks.find((bank) => bank.bic === target)!;
      assert.deepEqual([shown.state, shown.excludedBy?.kind, shown.excludedBy?.reason, shown.excludedBy?.createdBy.name], ['excluded', 'bic', 'closing down', 'bootstrap']);
      const lifted = await admin('POST', '/admin/v1/banks/admissions/unexclude', { bics: [target] });
      assert.deepEqual(lifted.json, { changed: [target], unchanged: [] });
      shown = (await queue()).banks.find((bank) => bank.bic === target)!;
      assert.equal(shown.state, 'pending');
      assert.equal((await admin('POST', '/admin/v1/banks/admissions/exclude', { bics: [target], reason: 'closing down' })).status, 200);
      assert.equal((await admin('POST', '/admin/v1/banks/admissions/exclude', { bics: [target], reason: '' })).status, 422, 'a reason is required');
      assert.equal((await admin('POST', '/admin/v1/banks/exclusions', { value: '()+$', reason: 'no words' })).status, 422);
      const kiwi = (await queue()).banks.find((bank) => bank.registryName === 'КИВИ Банк (АО)')!;
      const rule = await admin('POST', '/admin/v1/banks/exclusions', { value: 'киви банк', reason: 'licence revoked' });
      assert.equal(rule.status, 201, JSON.stringify(rule.json));
      assert.deepEqual((await queue()).banks.find((bank) => bank.bic === kiwi.bic)!.excludedBy?.id, rule.json.id, 'a name rule, any case');
      assert.equal((await admin('DELETE', `/admin/v1/banks/exclusions/${rule.json.id}`)).status, 204);
      assert.equal((await queue()).banks.find((bank) => bank.bic === kiwi.bic)!.state, 'pending', 'back in the queue');
      assert.equal((await admin('DELETE', `/admin/v1/banks/exclusions/${rule.json.id}`)).status, 404);
      const rules = (await admin('GET', '/admin/v1/banks/exclusions')).json.exclusions as Array<{ kind: string; value: string }>;
      assert.deepEqual(rules.map((rule) => [rule.kind, rule.value]), [['name', 'НКО'], ['name', 'РНКО'], ['name', 'ПНКО'], ['name', 'Межгосударственный банк'], ['bic', target]]);
    });

    it('when a changed directory (one queued bank leaves, two join, an excluded bank is renamed) is synced, then the queue grows by the two, exclusions hold and the leaver is gone', async () => {
      const before = await queue();
      const excludedBefore = before.banks.filter((bank) => bank.state === 'excluded').map((bank) => bank.bic);
      const leaver = before.banks.filter((bank) => bank.state === 'pending').at(-1)!.bic;
      const body = (await partnerBanks()).bytes;
      served = changedDirectory({ leaves: leaver, joins: JOINERS, renamed: MONETA });
      const run = await admin('POST', '/admin/v1/banks/sync');
      assert.equal(run.status, 200, JSON.stringify(run.json));
      assert.deepEqual([run.json.added, run.json.removed], [0, 0], 'nothing new reaches partners');
      assert.ok((await partnerBanks()).bytes.equals(body));

      const after = await queue();
      const bics = after.banks.map((bank) => bank.bic);
      assert.equal(after.banks.length, before.banks.length + 2 - 1);
      assert.ok(JOINERS.every((bic) => after.banks.find((bank) => bank.bic === bic)?.state === 'pending'), 'the two joiners wait');
      assert.ok(!bics.includes(leaver), 'the leaver is gone');
      assert.deepEqual(after.banks.filter((bank) => bank.state === 'excluded').map((bank) => bank.bic).sort(), excludedBefore.sort(), 'the exclusions hold');
      const moneta = after.banks.find((bank) => bank.bic === MONETA)!;
      assert.deepEqual([moneta.registryName, moneta.state], ['НКО "МОНЕТА" (ООО) (renamed)', 'excluded']);
      const first = before.banks.find((bank) => bank.bic === MONETA)!.firstSeenAt;
      assert.equal(moneta.firstSeenAt, first, 'first seen stays the first time');
    });

    it('when banks.admit and banks.exclude are put under maker-checker, then each is a proposal with its preview that changes nothing until another operator approves it', async () => {
      const settings = await admin('PUT', '/admin/v1/approvals/settings', { required: ['banks.admit', 'banks.exclude'] });
      assert.equal(settings.status, 200, JSON.stringify(settings.json));
      const call = (who: TestOperator, method: string, url: string, payload?: object) => t.admin.inject({ method: method as 'POST', url, headers: who.headers, ...(payload ? { payload } : {}) });
      const before = await partnerBanks();
      const proposed = await call(maker, 'POST', '/admin/v1/banks/admissions/admit', { banks: [{ bic: JOINERS[0], name: 'Яринтербанк' }] });
      assert.equal(proposed.statusCode, 202, proposed.body);
      assert.deepEqual([proposed.json().action, proposed.json().preview.added, proposed.json().preview.changes[0].name], ['banks.admit', 1, 'Яринтербанк']);
      assert.ok((await partnerBanks()).bytes.equals(before.bytes), 'nothing changed yet');
      const approved = await call(checker, 'POST', `/admin/v1/approvals/${proposed.json().id}/approve`);
      assert.equal(approved.statusCode, 200, approved.body);
      assert.deepEqual((await partnerBanks()).banks.at(-1), { name: 'Яринтербанк', bic: JOINERS[0] });

      const exclusion = await call(maker, 'POST', '/admin/v1/banks/admissions/exclude', { bics: [JOINERS[1]], reason: 'not a retail bank' });
      assert.equal(exclusion.statusCode, 202, exclusion.body);
      assert.equal((await queue()).banks.find((bank) => bank.bic === JOINERS[1])!.state, 'pending');
      assert.equal((await call(checker, 'POST', `/admin/v1/approvals/${exclusion.json().id}/approve`)).statusCode, 200);
      assert.equal((await queue()).banks.find((bank) => bank.bic === JOINERS[1])!.state, 'excluded');
      await t.gateway.admin.audit.flush();
      const audit = await admin('GET', '/admin/v1/audit?action=banks.admit');
      assert.ok(audit.json.entries.some((entry: { details?: { added?: string[] } }) => entry.details?.added?.includes(JOINERS[0])), 'audited with what it added');
    });
  });
}
