/**
 * Issue 35's bearer goal: a bearer banks call against ceiling (a), the bare Fastify route answering the same bytes
 * (bench/ceilings/bare-banks-server.ts), as CPU per answered call of each server's process, in alternating rounds
 * (the bare route first in odd rounds, the gateway first in even ones) with the same load (32 connections). The
 * goal: the gateway's CPU per call at most 1.6× the bare route's, judged on the worst round. Called by
 * bench/run.ts, and runnable alone: `node --import tsx bench/bearer-comparison.ts` (BENCH_BACKEND,
 * BENCH_DURATION, BENCH_ROUNDS, BENCH_MAIN: one or more builds' main.js, comma-separated, each against the same
 * bare route in the same rounds).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DatabaseKind } from '../src/db/database.js';
import { projectFile } from '../src/project-root.js';
import { startGatewayProcess, stopGatewayProcess } from '../test/support/gateway-process.js';
import type { LoadResult, LoadSpec } from './load.js';
import { printReport, type Row, type Target } from './support/bench-report.js';
import { openBenchBackend } from './support/bench-backend.js';
import { bearerPartner } from './support/bearer-partner.js';
import { runLoad, runLoadWithCpu } from './support/run-load.js';

/** The goal: the gateway's CPU per bearer call at most this many times the bare route's. */
export const BEARER_CPU_GOAL = 1.6;

export interface BearerSide {
  label: string;
  pid: number;
  spec: LoadSpec;
}

/**
 * Alternating rounds of `sides` (the bare route first): rows for each run, and per gateway side its target (the
 * CPU-per-call ratio to the bare route's of the same round, worst round deciding).
 */
export async function compareBearerCpu(options: {
  kind: string;
  bare: BearerSide;
  gateways: BearerSide[];
  rounds: number;
  warmupSec: number;
  record: (scenario: string, result: LoadResult, extra: Partial<Row>) => Row;
  targets: Target[];
}): Promise<void> {
  const { bare, gateways } = options;
  if (options.warmupSec > 0) for (const side of [bare, ...gateways]) await runLoad({ ...side.spec, durationSec: options.warmupSec });
  const ratios = new Map<string, number[]>(gateways.map((side) => [side.label, []]));
  for (let round = 1; round <= options.rounds; round++) {
    const order = round % 2 === 1 ? [bare, ...gateways] : [...gateways, bare];
    const rows = new Map<string, Row>();
    for (const side of order) {
      const [result, cpu] = await runLoadWithCpu(side.pid, side.spec);
      rows.set(side.label, options.record(`10. bearer CPU comparison, round ${round}: ${side.label}`, result, cpu));
    }
    const bareRow = rows.get(bare.label)!;
    for (const side of gateways) {
      const row = rows.get(side.label)!;
      row.ratio = row.rps / bareRow.rps;
      row.ceiling = '(a) same round';
      if (row.cpuUsPerCall && bareRow.cpuUsPerCall) ratios.get(side.label)!.push(row.cpuUsPerCall / bareRow.cpuUsPerCall);
    }
  }
  for (const side of gateways) {
    const values = ratios.get(side.label)!;
    options.targets.push({
      backend: options.kind,
      target: `${side.label}: bearer banks CPU per call <= ${BEARER_CPU_GOAL}x the bare route's (a), worst of alternating rounds`,
      met: values.length > 0 && Math.max(...values) <= BEARER_CPU_GOAL,
      value: values.length === 0 ? 'unmeasured' : `${Math.min(...values).toFixed(2)}–${Math.max(...values).toFixed(2)}x over ${values.length} rounds`,
    });
  }
}

/** A helper server that prints its URL as its first line. */
export function startBareBanks(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', projectFile('bench/ceilings/bare-banks-server.ts')], { stdio: ['ignore', 'pipe', 'inherit'] });
  process.once('exit', () => child.kill('SIGKILL'));
  return new Promise((resolve, reject) => {
    let buffer = '';
    child.stdout!.on('data', (chunk) => {
      buffer += String(chunk);
      if (buffer.includes('\n')) resolve({ child, url: buffer.slice(0, buffer.indexOf('\n')).trim() });
    });
    child.once('exit', (code) => reject(new Error(`bare-banks-server exited with ${code}`)));
  });
}

// Alone: the bare route, each build's gateway on one backend with a partner and its bearer token, the rounds.
if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/^.*\//, '/'))) {
  const kind = (process.env.BENCH_BACKEND ?? 'pglite') as DatabaseKind;
  const duration = Number(process.env.BENCH_DURATION ?? 10);
  const mains = (process.env.BENCH_MAIN ?? '').split(',').filter(Boolean);
  const workDir = mkdtempSync(join(tmpdir(), 'bearer-comparison-'));
  process.once('exit', () => rmSync(workDir, { recursive: true, force: true }));
  const loadAtStart = loadavg();
  const bare = await startBareBanks();
  const gateways: BearerSide[] = [];
  const stops: Array<() => Promise<void>> = [];
  for (const [index, variant] of (mains.length > 0 ? mains : ['']).entries()) {
    const [path, ...nodeArgs] = variant.trim().split(/\s+/).filter(Boolean);
    const build = path ?? true;
    const backend = await openBenchBackend(kind, { workDir, databaseUrl: process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test', suffix: String(index) });
    const adminToken = randomBytes(24).toString('hex');
    const gateway = await startGatewayProcess({ ...backend.env, MASTER_KEY: randomBytes(32).toString('hex'), ADMIN_TOKEN: adminToken, LOG_LEVEL: 'warn' }, { build, echo: false, inheritEnv: false, nodeArgs });
    stops.push(async () => {
      await stopGatewayProcess(gateway);
      await backend.close();
    });
    const token = await bearerPartner(gateway, adminToken, 'bench-0', 'benchmark partner password');
    const label = `${kind} ${build === true ? 'gateway' : build.split('/').slice(-4, -2).join('/')}${nodeArgs.length > 0 ? ` ${nodeArgs.join(' ')}` : ''}`;
    gateways.push({ label, pid: gateway.process.pid!, spec: { url: `${gateway.base}/partner/provider/sbp/banks/`, method: 'POST', headers: { authorization: `Bearer ${token}` }, connections: 32, durationSec: duration } });
  }
  const rows: Row[] = [];
  const targets: Target[] = [];
  await compareBearerCpu({
    kind,
    bare: { label: 'bare route (a)', pid: bare.child.pid!, spec: { url: `${bare.url}/banks`, method: 'POST', connections: 32, durationSec: duration } },
    gateways,
    rounds: Number(process.env.BENCH_ROUNDS ?? 2),
    warmupSec: Number(process.env.BENCH_WARMUP ?? 3),
    record: (scenario, result, extra) => {
      const row: Row = { backend: kind, scenario, rps: result.rps, p50: result.p50, p99: result.p99, failed: result.failed, ...extra };
      rows.push(row);
      process.stderr.write(`${scenario}: ${result.rps} req/s, ${extra.cpuUsPerCall ?? '?'} µs CPU/call\n`);
      return row;
    },
    targets,
  });
  for (const stop of stops) await stop();
  printReport(rows, targets);
  console.log(`\nload average (1, 5, 15 min) at start ${loadAtStart.map((value) => value.toFixed(2)).join(' ')}, at end ${loadavg().map((value) => value.toFixed(2)).join(' ')}`);
  process.exit(0);
}
