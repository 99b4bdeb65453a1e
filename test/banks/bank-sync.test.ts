import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { loadDefaultBanks } from '../../src/banks/default-banks.js';
import { changedDirectory, directoryWithout, ED807_MAY_2023, excludedByDefault, sbpHeadOffices, zipped } from '../support/ed807-directory.js';
import { testBackends } from '../support/test-databases.js';
import { bankListClients } from '../support/bank-list-clients.js';
import { startSiblingGateway, startTestGateway, TEST_ADMIN_TOKEN, type TestGateway } from '../support/test-gateway.js';
import { waitFor } from '../support/wait-for.js';

/**
 * A registry source on loopback: serves `body` at every path (`/ed807.xml`, `/ed807.zip`), counts requests, and
 * holds its answers while `gate` is set (to overlap two syncs).
 */
function registryServer() {
  const state = { body: Buffer.alloc(0) as Buffer, contentType: 'application/xml', requests: 0, gate: undefined as Promise<void> | undefined };
  const server: Server = createServer(async (request, response) => {
    state.requests++;
    await state.gate;
    response.writeHead(200, { 'content-type': state.contentType, 'content-length': state.body.length });
    response.end(state.body);
  });
  return {
    state,
    async listen() {
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * The scheduled registry sync over real HTTP (issue 24), on the real May 2023 directory served by a loopback
 * source: curated fields survive, a changed directory is one version, restore is byte-identical, the removal guard
 * holds a directory cut short until approved, a broken source changes nothing, and two instances run one sync.
 */
for (const backend of testBackends()) {
  describe(`bank registry sync over HTTP on ${backend.name}`, () => {
    const source = registryServer();
    let t: TestGateway;
    let sibling: TestGateway;
    let api: string;
    let adminUrl: string;
    let siblingAdminUrl: string;
    let clients: Awaited<ReturnType<typeof bankListClients>>;
    const defaults = loadDefaultBanks();
    const xml = readFileSync(ED807_MAY_2023);

    before(async () => {
      const base = await source.listen();
      // New SBP head offices published as the sync finds them (BANKS_AUTO_ADMIT); the review queue is test/banks/bank-admission.test.ts.
      const env = { BANKS_SYNC_URL: `${base}/ed807.xml?key=not-for-the-logs`, BANKS_SYNC_MAX_REMOVALS: '10', BANKS_SYNC_MIN_BANKS: '20', BANKS_AUTO_ADMIT: 'true' };
      t = await startTestGateway(backend, { env });
      sibling = await startSiblingGateway(t, { env });
      api = await t.app.listen({ host: '127.0.0.1', port: 0 });
      adminUrl = await t.admin.listen({ host: '127.0.0.1', port: 0 });
      siblingAdminUrl = await sibling.admin.listen({ host: '127.0.0.1', port: 0 });
      clients = await bankListClients(t, api, adminUrl);
    });
    after(async () => {
      await sibling.close();
      await t.close();
      await source.close();
    });

    const admin = (method: string, path: string, base = adminUrl) => clients.admin(method, path, undefined, undefined, base);
    const partnerBanks = () => clients.partnerBanks();
    const serve = (body: Buffer, contentType = 'application/xml') => {
      source.state.body = body;
      source.state.contentType = contentType;
    };

    let first: Awaited<ReturnType<typeof partnerBanks>>;

    it('when the schedule comes due on two instances at once, then one of them fetches and syncs, and the new SBP head offices are appended after the curated list untouched', async () => {
      first = await partnerBanks();
      assert.equal(first.version, '1');
      serve(xml);
      let open!: () => void;
      source.state.gate = new Promise<void>((resolve) => (open = resolve));
      const both = Promise.all([t.gateway.runtime.syncBanksIfDue(), sibling.gateway.runtime.syncBanksIfDue()]);
      await waitFor(() => source.state.requests === 1, { message: 'the first instance to fetch the directory' });
      open();
      source.state.gate = undefined;
      const results = (await both) as Array<{ outcome: string; version: number } | undefined>;
      assert.equal(source.state.requests, 1, 'one fetch for two instances');
      const ran = results.filter((result) => result !== undefined);
      assert.equal(ran.length, 1, 'one run recorded');
      assert.deepEqual([ran[0]!.outcome, ran[0]!.version], ['applied', 2]);

      const { json } = await admin('GET', '/admin/v1/banks');
      assert.deepEqual(
        json.banks.slice(0, defaults.length).map((bank: { bic: string; name: string; nameEn: string | null; sbpMemberId: string | null }) => [bank.bic, bank.name, bank.nameEn, bank.sbpMemberId]),
        defaults.map((bank) => [bank.bic, bank.name, bank.nameEn ?? null, bank.sbpMemberId ?? null]),
        'display names, Latin names, member ids and order of the banks that stay are untouched',
      );
      const offices = sbpHeadOffices();
      const added = json.banks.slice(defaults.length).map((bank: { bic: string }) => bank.bic);
      const excluded = excludedByDefault();
      assert.deepEqual(added, offices.filter((bic) => !defaults.some((bank) => bank.bic === bic) && !excluded.has(bic)), 'the new SBP head offices the default rules do not exclude, in the directory order');
      const version = await admin('GET', '/admin/v1/banks/versions/2');
      assert.deepEqual([version.json.source, version.json.author], ['sync', { id: 'sync', name: 'scheduled sync', credential: 'system' }]);

      const status = await admin('GET', '/admin/v1/banks/sync');
      assert.equal(status.json.runs[0].outcome, 'applied');
      assert.equal(status.json.runs[0].source, `${new URL(status.json.source).origin}/ed807.xml`, 'never the query string');
      assert.ok(!JSON.stringify(status.json).includes('not-for-the-logs'));
      // Either instance may have won the run; the search flushes only its own instance's queue.
      await sibling.gateway.admin.audit.flush();
      const audit = await admin('GET', '/admin/v1/audit?action=banks.sync');
      assert.equal(audit.json.entries[0].operator.credential, 'system');
      assert.equal(audit.json.entries[0].details.version, 2);
    });

    it('when the same directory comes again as the ZIP the Bank of Russia publishes, then the run is unchanged and no version is made', async () => {
      serve(zipped(xml), 'application/zip');
      const run = await admin('POST', '/admin/v1/banks/sync');
      assert.equal(run.status, 200);
      assert.deepEqual([run.json.outcome, run.json.version, run.json.changes], ['unchanged', null, []]);
      assert.equal((await partnerBanks()).version, '2');
    });

    it('when a changed directory is synced (one leaves SBP, one joins, one renamed in the registry), then exactly those changes are one new version, previewed first', async () => {
      const [, renamed, , , leaves] = defaults;
      serve(zipped(changedDirectory({ leaves: leaves!.bic, joins: '047888728', renamed: renamed!.bic })), 'application/zip');
      const preview = await admin('POST', '/admin/v1/banks/sync/preview');
      assert.equal(preview.status, 200);
      assert.deepEqual([preview.json.added, preview.json.changed, preview.json.removed, preview.json.holdReason], [['047888728'], [renamed!.bic], [leaves!.bic], null]);
      assert.equal((await partnerBanks()).version, '2', 'a preview changes nothing');
      const run = await admin('POST', '/admin/v1/banks/sync');
      assert.deepEqual([run.json.outcome, run.json.baseVersion, run.json.version], ['applied', 2, 3]);
      assert.deepEqual(run.json.changes, preview.json.changes, 'applied exactly as previewed');
      assert.deepEqual(run.json.changes.find((change: { bic: string }) => change.bic === renamed!.bic).fields.map((field: { field: string }) => field.field), ['registryName']);
      const { json } = await admin('GET', '/admin/v1/banks');
      assert.equal(json.banks.find((bank: { bic: string }) => bank.bic === renamed!.bic).name, renamed!.name, 'the display name stays curated');
      const version = await admin('GET', '/admin/v1/banks/versions/3');
      assert.deepEqual([version.json.source, version.json.author.name], ['sync', 'bootstrap']);
    });

    it('when version 1 is restored, then partners get byte for byte what they got before any sync', async () => {
      assert.equal((await admin('POST', '/admin/v1/banks/versions/1/restore')).status, 200);
      const now = await partnerBanks();
      assert.ok(now.bytes.equals(first.bytes));
      assert.equal(now.etag, first.etag);
    });

    it('when a directory lists 30 fewer SBP banks than the list holds, then the sync is held with its full preview, nothing changes until an operator approves, and then exactly that applies', async () => {
      serve(xml);
      assert.equal((await admin('POST', '/admin/v1/banks/sync')).json.outcome, 'applied');
      const before = (await admin('GET', '/admin/v1/banks')).json;
      const dropped = before.banks.slice(-30).map((bank: { bic: string }) => bank.bic);
      serve(directoryWithout(dropped));
      const held = await admin('POST', '/admin/v1/banks/sync', siblingAdminUrl);
      assert.equal(held.status, 200);
      assert.equal(held.json.outcome, 'held');
      assert.match(held.json.hold.reason, /would remove 30 banks \(more than BANKS_SYNC_MAX_REMOVALS, 10\)/);
      assert.deepEqual(held.json.changes.filter((change: { kind: string }) => change.kind === 'removed').map((change: { bic: string }) => change.bic), dropped);
      assert.equal((await admin('GET', '/admin/v1/banks')).json.version, before.version, 'nothing applied');
      const status = await admin('GET', '/admin/v1/banks/sync');
      assert.equal(status.json.pending.id, held.json.id);
      const metrics = await fetch(`${adminUrl}/metrics`, { headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } }).then((response) => response.text());
      assert.match(metrics, /^partner_gateway_bank_sync_pending_changes 1$/m);

      const approved = await admin('POST', `/admin/v1/banks/sync/pending/${held.json.id}/approve?comment=${encodeURIComponent('the registry really dropped them')}`);
      assert.equal(approved.status, 200);
      assert.deepEqual([approved.json.hold.status, approved.json.version], ['approved', before.version + 1]);
      const after = (await admin('GET', '/admin/v1/banks')).json;
      assert.deepEqual(after.banks.map((bank: { bic: string }) => bank.bic), before.banks.slice(0, -30).map((bank: { bic: string }) => bank.bic));
      assert.equal((await admin('POST', `/admin/v1/banks/sync/pending/${held.json.id}/approve`)).status, 409, 'approved once');
    });

    it('when a held run is rejected, or the list changes before it is approved, then nothing of it is applied', async () => {
      serve(xml);
      const offices = (await admin('GET', '/admin/v1/banks')).json.banks.slice(-12).map((bank: { bic: string }) => bank.bic);
      serve(directoryWithout(offices));
      const first = (await admin('POST', '/admin/v1/banks/sync')).json;
      // The 30 banks removed above come back, and 12 others leave: more than 10 removals, so it is held.
      assert.equal(first.outcome, 'held', first.hold?.reason);
      const rejected = await admin('POST', `/admin/v1/banks/sync/pending/${first.id}/reject?comment=a%20cut%20file`);
      assert.deepEqual([rejected.status, rejected.json.hold.status, rejected.json.hold.comment], [200, 'rejected', 'a cut file']);
      const second = (await admin('POST', '/admin/v1/banks/sync')).json;
      assert.equal(second.outcome, 'held');
      const version = (await admin('GET', '/admin/v1/banks')).json.version;
      await clients.admin('PATCH', `/admin/v1/banks/${defaults[3]!.bic}`, JSON.stringify({ position: 1 }));
      const late = await admin('POST', `/admin/v1/banks/sync/pending/${second.id}/approve`);
      assert.equal(late.status, 409);
      assert.equal(late.json.code ?? 'bank_list_changed', 'bank_list_changed');
      assert.equal((await admin('GET', '/admin/v1/banks')).json.version, version + 1, 'only the edit');
      assert.equal((await admin('GET', '/admin/v1/banks/sync')).json.runs.find((run: { id: number }) => run.id === second.id).hold.status, 'conflict');
    });

    it('when the source is unreachable, or serves something that is not an ED807 directory, then nothing changes, the run is recorded as failed and the metrics say so', async () => {
      const before = await partnerBanks();
      for (const [body, type, problem] of [
        [Buffer.from('<html>maintenance</html>'), 'text/html', /not a usable ED807 directory/],
        [zipped(Buffer.from('not xml'), 'readme.txt'), 'application/zip', /the ZIP holds no XML file/],
        [Buffer.from('{"banks": []}'), 'application/json', /not a usable ED807 directory/],
      ] as const) {
        serve(body, type);
        const failed = await admin('POST', '/admin/v1/banks/sync');
        assert.equal(failed.status, 502);
        assert.match(failed.json.description_status, problem);
      }
      await source.close();
      const unreachable = await admin('POST', '/admin/v1/banks/sync');
      assert.equal(unreachable.status, 502);
      assert.match(unreachable.json.description_status, /could not be fetched/);
      assert.ok(!unreachable.json.description_status.includes('not-for-the-logs'));
      const after = await partnerBanks();
      assert.ok(after.bytes.equals(before.bytes), 'partners keep the same list');
      assert.equal(after.version, before.version);
      const status = (await admin('GET', '/admin/v1/banks/sync')).json;
      assert.deepEqual(status.runs.slice(0, 4).map((run: { outcome: string }) => run.outcome), ['failed', 'failed', 'failed', 'failed']);
      const metrics = await fetch(`${adminUrl}/metrics`, { headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } }).then((response) => response.text());
      assert.match(metrics, /^partner_gateway_bank_sync_last_attempt_failed 1$/m);
      assert.match(metrics, /^partner_gateway_bank_sync_last_success_age_seconds \d/m);
      const audit = (await admin('GET', '/admin/v1/audit?action=banks.sync&outcome=failure')).json;
      assert.ok(audit.entries.length >= 4);
    });
  });
}
