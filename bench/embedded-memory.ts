/**
 * `node --import tsx bench/embedded-memory.ts`: the embedded default's memory (issue 35). Starts the production
 * build (`npm start`'s node options) on an empty DATA_DIR BENCH_MEMORY_ROUNDS times (default 3) and reports, per
 * round and as the spread: the peak RSS (VmHWM) from the start to the ready banner, the peak under the bench's
 * bearer load (8 connections of bearer banks calls, BENCH_DURATION seconds) and how long a SIGKILLed gateway
 * takes to disappear (kill to the parent seeing its exit, which waits for the kernel to tear its memory down),
 * against the ceilings 250 MB, 200 MB and 0.5 s. BENCH_MAIN: another build's main.js to measure instead (a
 * before/after). See docs/performance.md.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startGatewayProcess, stopGatewayProcess } from '../test/support/gateway-process.js';
import { printReport, type Row, type Target } from './support/bench-report.js';
import { resetPeakRss, rssMb, runLoadWithCpu } from './support/run-load.js';

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const ROUNDS = Number(process.env.BENCH_MEMORY_ROUNDS ?? 3);
const ADMIN_TOKEN = randomBytes(24).toString('hex');
const PASSWORD = 'embedded memory bench password';
const workDir = mkdtempSync(join(tmpdir(), 'embedded-memory-'));

interface Round {
  firstStartMb: number;
  loadPeakMb: number;
  killSeconds: number;
}

const rounds: Round[] = [];
const rows: Row[] = [];
try {
  for (let round = 1; round <= ROUNDS; round++) {
    const dataDir = join(workDir, `data-${round}`);
    const gateway = await startGatewayProcess(
      { DATA_DIR: dataDir, MASTER_KEY: randomBytes(32).toString('hex'), ADMIN_TOKEN, LOG_LEVEL: 'warn' },
      { build: process.env.BENCH_MAIN ?? true, echo: false, inheritEnv: false },
    );
    const pid = gateway.process.pid!;
    const firstStartMb = rssMb(pid).peak;
    await fetch(`${gateway.admin}/admin/v1/partners`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ login: 'memory', password: PASSWORD, ipAllowlist: ['127.0.0.1'], rewardTypes: ['sbp'] }),
    });
    const login = await fetch(`${gateway.base}/api/v1/login/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ login: 'memory', password: PASSWORD }) });
    const token = ((await login.json()) as { access_token: string }).access_token;
    resetPeakRss(pid);
    const [bearer, cpu] = await runLoadWithCpu(pid, { url: `${gateway.base}/partner/provider/sbp/banks/`, method: 'POST', headers: { authorization: `Bearer ${token}` }, connections: 8, durationSec: DURATION });
    const loadPeakMb = rssMb(pid).peak;
    gateway.process.ref();
    const killedAt = performance.now();
    gateway.process.kill('SIGKILL');
    await gateway.exited;
    const killSeconds = Math.round(performance.now() - killedAt) / 1000;
    rounds.push({ firstStartMb, loadPeakMb, killSeconds });
    rows.push({ backend: 'pglite', scenario: `embedded memory, round ${round}: bearer banks after first start`, rps: bearer.rps, p50: bearer.p50, p99: bearer.p99, failed: bearer.failed, peakRssMb: loadPeakMb, ...cpu });
    process.stderr.write(`round ${round}: first start peak ${firstStartMb} MB, under bearer load ${loadPeakMb} MB, SIGKILL to exit ${killSeconds} s\n`);
    await stopGatewayProcess(gateway, 'SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  }
} finally {
  rmSync(workDir, { recursive: true, force: true });
}

const spread = (values: number[], unit: string) => `${Math.min(...values)}-${Math.max(...values)} ${unit} over ${values.length} starts`;
const firstStarts = rounds.map((round) => round.firstStartMb);
const loadPeaks = rounds.map((round) => round.loadPeakMb);
const kills = rounds.map((round) => round.killSeconds);
const targets: Target[] = [
  { backend: 'pglite', target: 'first start on an empty DATA_DIR: peak RSS <= 250 MB', met: Math.max(...firstStarts) <= 250, value: spread(firstStarts, 'MB') },
  { backend: 'pglite', target: 'bearer load after the first start: peak RSS <= 200 MB', met: Math.max(...loadPeaks) <= 200, value: spread(loadPeaks, 'MB') },
  { backend: 'pglite', target: 'SIGKILLed embedded gateway gone in < 0.5 s', met: Math.max(...kills) < 0.5, value: spread(kills, 's') },
];
printReport(rows, targets);
console.log(`\nload average (1 min) at end ${loadavg()[0]!.toFixed(2)}`);
process.exit(0);
