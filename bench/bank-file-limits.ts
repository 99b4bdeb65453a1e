/**
 * `node --import tsx bench/bank-file-limits.ts` (after `npm run build`): the bank files of issue 33 sent to the
 * production build, run as `npm start` runs it (a 256 MiB heap), on the embedded database, while this process
 * makes a partner's bearer banks calls back to back. Prints, per file, the answer, the calls' latency (p50, p99,
 * max: a stalled serving thread shows here) and the gateway's peak RSS; fails if the gateway stops.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { zipped } from '../test/support/ed807-directory.js';
import { startGatewayProcess, stopGatewayProcess } from '../test/support/gateway-process.js';
import { postEarlyAnswered } from '../test/support/post-early-answered.js';
import { openBenchBackend } from './support/bench-backend.js';
import { resetPeakRss, rssMb } from './support/run-load.js';

const MiB = 1024 * 1024;
const ADMIN_TOKEN = randomBytes(24).toString('hex');
const workDir = mkdtempSync(join(tmpdir(), 'bank-files-'));
process.on('exit', () => rmSync(workDir, { recursive: true, force: true }));
const ed807Of = (elements: number) => Buffer.from(`<ED807 xmlns="urn:cbr-ru:ed:v2.0">${'<a/>'.repeat(elements)}</ED807>`);
const zip = zipped(ed807Of(10 * MiB));
const registry = createServer((_request, response) => {
  response.writeHead(200, { 'content-type': 'application/zip', 'content-length': zip.length });
  response.end(zip);
});
await new Promise<void>((resolve) => registry.listen(0, '127.0.0.1', resolve));

const backend = await openBenchBackend('pglite', { workDir, databaseUrl: '' });
const gateway = await startGatewayProcess(
  { ...backend.env, MASTER_KEY: randomBytes(32).toString('hex'), ADMIN_TOKEN, NODE_ENV: 'development', BANKS_SYNC_URL: `http://127.0.0.1:${(registry.address() as AddressInfo).port}/ed807.zip`, BANKS_SYNC_INTERVAL: '2592000' },
  { build: true, echo: false, inheritEnv: false },
);
const pid = gateway.process.pid!;
const admin = (method: string, path: string, body?: Buffer, contentType?: string) =>
  fetch(`${gateway.admin}${path}`, { method, headers: { authorization: `Bearer ${ADMIN_TOKEN}`, ...(contentType ? { 'content-type': contentType } : {}) }, ...(body ? { body } : {}) });
await admin('POST', '/admin/v1/partners', Buffer.from(JSON.stringify({ login: 'bench', password: 'bank files bench password', ipAllowlist: ['127.0.0.1'], rewardTypes: ['sbp'] })), 'application/json');
const login = await fetch(`${gateway.base}/api/v1/login/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ login: 'bench', password: 'bank files bench password' }) });
const token = ((await login.json()) as { access_token: string }).access_token;

const files: Array<[string, () => Promise<Response>]> = [
  ['2 MiB CSV of 699 050 invalid rows, dryRun', () => admin('POST', '/admin/v1/banks/import?dryRun=true', Buffer.from(`bic,name\n${'x,\n'.repeat(Math.floor((2 * MiB) / 3))}`), 'text/csv')],
  ['ED807 of 2 M tiny elements (8 MiB)', async () => {
    const answer = await postEarlyAnswered(`${gateway.admin}/admin/v1/banks/import?dryRun=true`, ed807Of(2_000_000), { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/xml' }).catch((error: NodeJS.ErrnoException) => ({ status: 599, text: `connection closed by the gateway before its answer was read: ${error.code}` }));
    return new Response(answer.text, { status: answer.status });
  }],
  ['ED807 of 1 M tiny elements (4 MiB)', () => admin('POST', '/admin/v1/banks/import?dryRun=true', ed807Of(1_000_000), 'application/xml')],
  [`sync of a ${Math.round(zip.length / 1000)} KB ZIP unpacking to 40 MiB`, () => admin('POST', '/admin/v1/banks/sync')],
];
for (const [label, send] of files) {
  resetPeakRss(pid);
  const latencies: number[] = [];
  let failures = 0;
  let done = false;
  const calls = (async () => {
    while (!done) {
      const started = performance.now();
      const answer = await fetch(`${gateway.base}/partner/provider/sbp/banks/`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
      await answer.arrayBuffer();
      latencies.push(performance.now() - started);
      if (answer.status !== 200) failures++;
    }
  })();
  const started = performance.now();
  const response = await send();
  const text = await response.text();
  const took = performance.now() - started;
  done = true;
  await calls;
  latencies.sort((a, b) => a - b);
  const p = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!.toFixed(0);
  const code = /"description_status":"([^"]{0,90})/.exec(text)?.[1];
  console.log(`${label}: ${response.status} in ${took.toFixed(0)} ms (${text.length} bytes: ${code})`);
  console.log(`  ${latencies.length} bearer banks calls, ${failures} failed: p50 ${p(0.5)} ms, p99 ${p(0.99)} ms, max ${p(1)} ms; gateway peak RSS ${rssMb(pid).peak} MB`);
}
const alive = gateway.process.exitCode === null;
console.log(`gateway ${alive ? 'still running' : `exited (${gateway.process.exitCode})`}`);
await stopGatewayProcess(gateway);
registry.close();
if (!alive) process.exit(1);
