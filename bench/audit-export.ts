/**
 * `npm run bench:export`: the audit export of 1 000 000 entries (GET /admin/v1/audit/export, JSON lines and CSV)
 * from the production build on each backend (BENCH_BACKENDS, default `pglite,postgres`; BENCH_EXPORT_ROWS the
 * entries). The entries are loaded as the gateway writes them, the gateway started, a small export made to warm
 * it, and then the whole range exported and read to its end while the gateway's peak RSS (VmHWM, reset first)
 * is compared with its RSS just before: the export streams from the database by keyset pages, so the growth
 * must stay under 50 MB whatever the rows. Prints one line per export and the target met or not; see
 * docs/performance.md.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DatabaseKind } from '../src/db/database.js';
import { startGatewayProcess, stopGatewayProcess, type GatewayProcess } from '../test/support/gateway-process.js';
import { openBenchBackend } from './support/bench-backend.js';
import { insertAuditRows } from './support/bulk-rows.js';
import { resetPeakRss, rssMb } from './support/run-load.js';

const ROWS = Number(process.env.BENCH_EXPORT_ROWS ?? 1_000_000);
const GROWTH_LIMIT_MB = 50;
const BACKENDS = (process.env.BENCH_BACKENDS ?? 'pglite,postgres').split(',') as DatabaseKind[];
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const ADMIN_TOKEN = randomBytes(24).toString('hex');
const workDir = mkdtempSync(join(tmpdir(), 'bench-export-'));
process.once('exit', () => rmSync(workDir, { recursive: true, force: true }));

/** Reads an export to its end, as a client saving it would, counting its lines and bytes. */
async function readExport(gateway: GatewayProcess, from: Date, to: Date, format: 'jsonl' | 'csv'): Promise<{ lines: number; bytes: number; ms: number }> {
  const started = Date.now();
  const response = await fetch(`${gateway.admin}/admin/v1/audit/export?from=${from.toISOString()}&to=${to.toISOString()}&format=${format}`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
  if (response.status !== 200 || !response.body) throw new Error(`export answered ${response.status}: ${await response.text()}`);
  let lines = 0;
  let bytes = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.byteLength;
    for (const byte of chunk) if (byte === 10) lines++;
  }
  return { lines, bytes, ms: Date.now() - started };
}

const results: string[] = [];
let allMet = true;
for (const kind of BACKENDS) {
  const backend = await openBenchBackend(kind, { workDir, databaseUrl: DATABASE_URL, suffix: '-export' });
  const env = { ...backend.env, ADMIN_TOKEN, MASTER_KEY: randomBytes(32).toString('hex'), LOG_LEVEL: 'warn' };
  // A first start migrates the database (PGlite has one owner: the rows are loaded while the gateway is stopped).
  await stopGatewayProcess(await startGatewayProcess(env, { build: true, echo: false }));
  const loadStarted = Date.now();
  await backend.withDatabase((db) => insertAuditRows(db, kind, ROWS, 30));
  process.stderr.write(`[${kind}] ${ROWS} audit rows loaded in ${Math.round((Date.now() - loadStarted) / 1000)} s\n`);
  const gateway = await startGatewayProcess(env, { build: true, echo: false });
  try {
    const pid = gateway.process.pid!;
    const to = new Date(Date.now() + 60_000);
    const from = new Date(to.getTime() - 32 * 86_400_000);
    await readExport(gateway, new Date(to.getTime() - 3_600_000), to, 'jsonl');
    for (const format of ['jsonl', 'csv'] as const) {
      const before = rssMb(pid).now;
      resetPeakRss(pid);
      const read = await readExport(gateway, from, to, format);
      const peak = rssMb(pid).peak;
      const growth = peak - before;
      const met = growth < GROWTH_LIMIT_MB && read.lines >= ROWS;
      allMet &&= met;
      const line = `[${kind}] export ${format}: ${read.lines} lines, ${(read.bytes / 1e6).toFixed(0)} MB in ${(read.ms / 1000).toFixed(1)} s; RSS ${before} MB before, peak ${peak} MB: growth ${growth} MB (target < ${GROWTH_LIMIT_MB} MB: ${met ? 'met' : 'NOT MET'})`;
      process.stderr.write(`${line}\n`);
      results.push(line);
    }
  } finally {
    await stopGatewayProcess(gateway);
    await backend.close();
  }
}
console.log(results.join('\n'));
process.exit(allMet ? 0 : 1);
