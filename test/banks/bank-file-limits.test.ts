import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { after, before, describe, it, type TestContext } from 'node:test';
import { zipped } from '../support/ed807-directory.js';
import { bankListClients } from '../support/bank-list-clients.js';
import { postEarlyAnswered } from '../support/post-early-answered.js';
import { testBackends } from '../support/test-databases.js';
import { startTestGateway, TEST_ADMIN_TOKEN, type TestGateway } from '../support/test-gateway.js';

const MiB = 1024 * 1024;
/** The review's files (issue 33): each once stopped the gateway or stalled it. */
const INVALID_ROWS = Math.floor((2 * MiB) / 3);
const invalidCsv = () => Buffer.from(`bic,name\n${'x,\n'.repeat(INVALID_ROWS)}`);
const ed807Of = (elements: number) => Buffer.from(`<ED807 xmlns="urn:cbr-ru:ed:v2.0">${'<a/>'.repeat(elements)}</ED807>`);

/**
 * Bank files that once stopped the gateway or stalled it (issue 33), over real HTTP: each is refused with a
 * catalogue error, and a partner's bearer banks calls, made back to back throughout, keep being answered. Their
 * latency and the event-loop delay are printed as diagnostics (measurements, not assertions: speed belongs to the
 * benchmarks; here the test's own client shares the gateway's thread, bench/bank-file-limits.ts measures a
 * production process alone).
 */
for (const backend of testBackends()) {
  describe(`bank files past the limits over HTTP on ${backend.name}`, () => {
    const source: { body: Buffer } = { body: Buffer.alloc(0) };
    const registry = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/zip', 'content-length': source.body.length });
      response.end(source.body);
    });
    let t: TestGateway;
    let clients: Awaited<ReturnType<typeof bankListClients>>;
    let adminUrl: string;

    before(async () => {
      await new Promise<void>((resolve) => registry.listen(0, '127.0.0.1', resolve));
      const env = { BANKS_SYNC_URL: `http://127.0.0.1:${(registry.address() as AddressInfo).port}/ed807.zip` };
      t = await startTestGateway(backend, { env });
      const api = await t.app.listen({ host: '127.0.0.1', port: 0 });
      adminUrl = await t.admin.listen({ host: '127.0.0.1', port: 0 });
      clients = await bankListClients(t, api, adminUrl);
    });
    after(async () => {
      await t.close();
      await new Promise<void>((resolve) => registry.close(() => resolve()));
    });

    /** Runs `work` while a partner calls the banks operation back to back; every call must succeed. */
    async function whileBanksAreCalled<T>(context: TestContext, label: string, work: () => Promise<T>): Promise<T> {
      const delay = monitorEventLoopDelay({ resolution: 10 });
      const latencies: number[] = [];
      let done = false;
      const calls = (async () => {
        while (!done) {
          const started = performance.now();
          const answer = await clients.partnerBanks();
          latencies.push(performance.now() - started);
          assert.equal(answer.status, 200, 'the banks operation keeps answering');
        }
      })();
      delay.enable();
      try {
        return await work();
      } finally {
        done = true;
        await calls;
        delay.disable();
        latencies.sort((a, b) => a - b);
        const p = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!.toFixed(0);
        context.diagnostic(
          `${backend.name} ${label}: ${latencies.length} bearer banks calls, p50 ${p(0.5)} ms, p99 ${p(0.99)} ms, max ${p(1)} ms; ` +
            `event-loop delay max ${(delay.max / 1e6).toFixed(0)} ms, p99 ${(delay.percentile(99) / 1e6).toFixed(0)} ms; rss ${(process.memoryUsage().rss / MiB).toFixed(0)} MiB`,
        );
        assert.ok(latencies.length > 0);
      }
    }

    it('when a dry run imports a 2 MiB CSV of 699 050 invalid rows, then the answer is a 422 listing the first 100 problems and counting them all, and partners are served throughout', async (context) => {
      const file = invalidCsv();
      const answer = await whileBanksAreCalled(context, '2 MiB invalid CSV', () => clients.admin('POST', '/admin/v1/banks/import?dryRun=true', file, 'text/csv'));
      assert.equal(answer.status, 422);
      assert.equal(answer.json.errors?.length, 100, JSON.stringify(answer.json).slice(0, 500));
      assert.equal(answer.json.errorCount, 2 * INVALID_ROWS, 'a bad BIC and an empty name on every row');
      assert.match(answer.json.description_status, /^The request contains invalid data \(line 2\.bic: .*; and 1398095 more\); repeat the request with correct data$/);
    });

    it('when an ED807 of 2 000 000 tiny elements is imported, then 413 import_too_large names the 4 MiB limit, before anything is parsed', async (context) => {
      const file = ed807Of(2_000_000);
      // The gateway answers on the Content-Length and closes the connection: a client still sending may see the
      // connection reset before it reads the answer, so over TCP the answer is read when it comes, and the exact
      // answer is checked by injection below.
      const headers = { authorization: `Bearer ${TEST_ADMIN_TOKEN}`, 'content-type': 'application/xml' };
      const overHttp = await whileBanksAreCalled(context, '2 M-element ED807', () =>
        postEarlyAnswered(`${adminUrl}/admin/v1/banks/import?dryRun=true`, file, headers).catch((error: NodeJS.ErrnoException) => ({ status: error.code ?? 'error', text: '' })),
      );
      assert.ok([413, 'EPIPE', 'ECONNRESET'].includes(overHttp.status), String(overHttp.status));
      const answer = await t.admin.inject({ method: 'POST', url: '/admin/v1/banks/import?dryRun=true', headers, payload: file });
      assert.equal(answer.statusCode, 413);
      assert.equal(answer.json().description_status, 'The file is larger than the import limit of 4 MiB (BANKS_IMPORT_MAX_BYTES); nothing was changed: send a smaller file');
    });

    it('when an ED807 of 1 000 000 tiny elements, just within the limit, is imported, then it is read off the serving thread and refused with a 422', async (context) => {
      const file = ed807Of(1_000_000);
      const answer = await whileBanksAreCalled(context, '1 M-element ED807 (4 MiB)', () => clients.admin('POST', '/admin/v1/banks/import?dryRun=true', file, 'application/xml'));
      assert.equal(answer.status, 422);
      assert.match(answer.json.description_status, /lists no SBP head office|could not be read within/);
    });

    it('when the registry source is a ZIP of under 200 KB that unpacks to 40 MiB, then the sync fails cleanly (502, recorded) and partners are served throughout', async (context) => {
      source.body = zipped(ed807Of(10 * MiB));
      assert.ok(source.body.length < 200_000, `${source.body.length} bytes`);
      const answer = await whileBanksAreCalled(context, 'ZIP of a 40 MiB ED807 (sync)', () => clients.admin('POST', '/admin/v1/banks/sync'));
      assert.equal(answer.status, 502);
      assert.match(answer.json.description_status, /^The bank registry sync failed \(run \d+\): the ZIP unpacks to more than 4194304 bytes; nothing was changed$/);
      const status = await clients.admin('GET', '/admin/v1/banks/sync');
      assert.deepEqual([status.json.runs[0].outcome, status.json.runs.some((run: { outcome: string }) => run.outcome === 'started')], ['failed', false]);
    });
  });
}
