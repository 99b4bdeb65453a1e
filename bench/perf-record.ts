/**
 * `node --import tsx bench/perf-record.ts [path/to/dist/src/main.js] [out.data]`: real CPU of the gateway serving
 * bearer banks calls (32 connections, BENCH_BACKEND pglite or postgres, default pglite), sampled by Linux `perf`
 * (`perf record -e cpu-clock -g`, 8 s after 4 s of warm-up, every thread of the process, JIT frames named through
 * `--perf-basic-prof-only-functions`), then its top symbols by self time. V8's own profiler (bench/profile.ts)
 * samples the serving thread by wall clock and spreads builtins and runtime calls over their callers; this one
 * names them (string hashing was found so). Needs `perf` (Debian's linux-perf) and perf_event_paranoid <= 2.
 * Function names of JIT code can be stale where V8 reused an address: trust builtins, runtime and native frames;
 * read JS frames by their callers (`perf report -i out.data --children`).
 */
import { randomBytes } from 'node:crypto';
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DatabaseKind } from '../src/db/database.js';
import { startGatewayProcess, stopGatewayProcess } from '../test/support/gateway-process.js';
import { openBenchBackend } from './support/bench-backend.js';
import { bearerPartner } from './support/bearer-partner.js';
import { runLoad } from './support/run-load.js';

const KIND = (process.env.BENCH_BACKEND ?? 'pglite') as DatabaseKind;
const main = process.argv[2];
const out = process.argv[3] ?? join(mkdtempSync(join(tmpdir(), 'perf-')), 'perf.data');
const workDir = mkdtempSync(join(tmpdir(), 'perf-record-'));
const ADMIN_TOKEN = randomBytes(24).toString('hex');
const PASSWORD = 'perf partner password';

const backend = await openBenchBackend(KIND, { workDir, databaseUrl: process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test' });
const gateway = await startGatewayProcess(
  { ...backend.env, MASTER_KEY: randomBytes(32).toString('hex'), ADMIN_TOKEN, LOG_LEVEL: 'warn' },
  { build: main ?? true, echo: false, inheritEnv: false, nodeArgs: ['--perf-basic-prof-only-functions'] },
);
const token = await bearerPartner(gateway, ADMIN_TOKEN, 'perf', PASSWORD);
const spec = { url: `${gateway.base}/partner/provider/sbp/banks/`, method: 'POST' as const, headers: { authorization: `Bearer ${token}` }, connections: 32 };
await runLoad({ ...spec, durationSec: 4 });
const perf = spawn('perf', ['record', '-q', '-e', 'cpu-clock', '-F', '4000', '-g', '-p', String(gateway.process.pid), '-o', out, '--', 'sleep', '8'], { stdio: 'inherit' });
const recorded = new Promise<number | null>((resolve) => perf.on('exit', resolve));
const result = await runLoad({ ...spec, durationSec: 9 });
const code = await recorded;
await stopGatewayProcess(gateway);
await backend.close();
if (code !== 0) throw new Error(`perf record exited with ${code}: is perf installed, and perf_event_paranoid <= 2?`);
const report = spawnSync('perf', ['report', '-i', out, '--no-children', '--sort', 'sym', '--stdio', '-g', 'none'], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
const top = report.stdout.split('\n').filter((line) => /^\s+\d/.test(line)).slice(0, 30);
process.stdout.write(`${KIND}, bearer: ${Math.round(result.rps)} req/s; ${out}\n${top.join('\n')}\n`);
