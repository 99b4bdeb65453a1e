/**
 * Issue 35's token goal: the gateway's client-credentials tokens (private_key_jwt, without and with DPoP) against
 * node-oidc-provider's (bench/ceilings/oidc-provider-server.ts, its in-memory adapter), the same load generator,
 * the same client key and connections, in alternating rounds (reference first in odd rounds, the gateway first
 * in even ones, so that the machine's drift favours neither), each run with its own single-use requests written
 * before it. Reports per round the rate ratio and the CPU-per-token ratio (each server's process, all its
 * threads), and the goals: at least 2× the reference's rate and at least 1.5× less CPU per token, judged on the
 * worst round. Called by bench/run.ts through bench/oauth-scenarios.ts, and runnable alone:
 * `node --import tsx bench/token-comparison.ts` (BENCH_BACKEND, BENCH_DURATION, BENCH_ROUNDS, BENCH_MAIN).
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DatabaseKind } from '../src/db/database.js';
import { projectFile } from '../src/project-root.js';
import { startGatewayProcess, stopGatewayProcess, type GatewayProcess } from '../test/support/gateway-process.js';
import type { LoadResult } from './load.js';
import { printReport, type Row, type Target } from './support/bench-report.js';
import { openBenchBackend } from './support/bench-backend.js';
import { benchProofs, writeTokenRequests, type BenchKey } from './support/oauth-requests.js';
import { registerKeyPartner } from './support/register-key-partner.js';
import { preparedCount } from './support/request-file.js';
import { runLoad, runLoadWithCpu } from './support/run-load.js';

/** The goals: the gateway's rate at least this many times the reference's, its CPU per token at least this many times less. */
export const RATE_GOAL = 2;
export const CPU_GOAL = 1.5;
const CONNECTIONS = 16;
const PROOF_IAT_OFFSET_SEC = 20;

export interface TokenComparisonOptions {
  kind: string;
  gateway: GatewayProcess;
  /** The gateway's partner `bench-key` with this ES256 key and private_key_jwt (registerKeyPartner). */
  key: BenchKey;
  workDir: string;
  durationSec: number;
  warmupSec: number;
  rounds: number;
  record: (scenario: string, result: LoadResult, extra: Partial<Row>) => Row;
  targets: Target[];
}

/** Starts the reference for `key`, runs the rounds, stops it; pushes its rows and its four targets. */
export async function compareWithOidcProvider(options: TokenComparisonOptions): Promise<void> {
  const { kind, gateway, key, workDir, durationSec } = options;
  const reference = spawn(process.execPath, ['--import', 'tsx', projectFile('bench/ceilings/oidc-provider-server.ts'), JSON.stringify(key.publicJwk)], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, NODE_ENV: 'production' },
  });
  const killReference = () => reference.kill('SIGKILL');
  process.once('exit', killReference);
  try {
    const issuer = await new Promise<string>((resolve, reject) => {
      let buffer = '';
      reference.stdout.on('data', (chunk) => {
        buffer += String(chunk);
        if (buffer.includes('\n')) resolve(buffer.slice(0, buffer.indexOf('\n')).trim());
      });
      reference.once('exit', (code) => reject(new Error(`oidc-provider-server exited with ${code}`)));
    });
    const servers = {
      reference: { pid: reference.pid!, tokenUrl: `${issuer}/token`, audience: issuer, label: 'node-oidc-provider' },
      gateway: { pid: gateway.process.pid!, tokenUrl: `${gateway.base}/api/v1/oauth/token`, audience: gateway.base, label: 'gateway' },
    };
    /** The best rate each server reached so far: the next run's single-use requests are sized from it. */
    const seen = new Map<string, number>();
    let files = 0;
    const run = async (server: keyof typeof servers, dpop: boolean, seconds: number, scenario?: string) => {
      const target = servers[server];
      const expected = Math.max(6_000, (seen.get(`${server}${dpop}`) ?? 0) * 1.5);
      const requestsFile = await writeTokenRequests(join(workDir, `compare-${kind.replace(/\W/g, '-')}-${files++}.jsonl`), {
        tokenUrl: target.tokenUrl,
        audience: target.audience,
        login: 'bench-key',
        key,
        count: preparedCount(expected, seconds),
        ...(dpop ? { proofs: benchProofs(PROOF_IAT_OFFSET_SEC) } : {}),
      });
      const spec = { url: target.tokenUrl, method: 'POST' as const, connections: CONNECTIONS, durationSec: seconds, requestsFile, singleUse: true };
      if (scenario === undefined) return void (await runLoad(spec));
      const [result, cpu] = await runLoadWithCpu(target.pid, spec);
      rmSync(requestsFile, { force: true });
      if (Object.keys(result.statuses).some((status) => status !== '200')) throw new Error(`${target.label} ${scenario}: answered ${JSON.stringify(result.statuses)}`);
      seen.set(`${server}${dpop}`, Math.max(seen.get(`${server}${dpop}`) ?? 0, result.rps));
      return options.record(`${scenario}, ${target.label}`, result, cpu);
    };
    if (options.warmupSec > 0) {
      for (const dpop of [false, true]) for (const server of ['reference', 'gateway'] as const) await run(server, dpop, options.warmupSec);
    }
    for (const dpop of [false, true]) {
      const name = dpop ? '9b. tokens, private_key_jwt + DPoP' : '9a. tokens, private_key_jwt';
      const rates: number[] = [];
      const cpus: number[] = [];
      for (let round = 1; round <= options.rounds; round++) {
        const order = round % 2 === 1 ? (['reference', 'gateway'] as const) : (['gateway', 'reference'] as const);
        const rows: Partial<Record<'reference' | 'gateway', Row>> = {};
        for (const server of order) rows[server] = (await run(server, dpop, durationSec, `${name}, round ${round}`))!;
        const [ours, theirs] = [rows.gateway!, rows.reference!];
        ours.ratio = ours.rps / theirs.rps;
        ours.ceiling = 'oidc-provider';
        rates.push(ours.ratio);
        if (ours.cpuUsPerCall && theirs.cpuUsPerCall) cpus.push(theirs.cpuUsPerCall / ours.cpuUsPerCall);
      }
      const range = (values: number[]) => (values.length === 0 ? 'unmeasured' : `${Math.min(...values).toFixed(2)}–${Math.max(...values).toFixed(2)}x over ${values.length} rounds`);
      options.targets.push(
        { backend: kind, target: `${name}: >= ${RATE_GOAL}x node-oidc-provider's rate (worst round)`, met: rates.length > 0 && Math.min(...rates) >= RATE_GOAL, value: range(rates) },
        { backend: kind, target: `${name}: >= ${CPU_GOAL}x less CPU per token than node-oidc-provider (worst round)`, met: cpus.length > 0 && Math.min(...cpus) >= CPU_GOAL, value: range(cpus) },
      );
    }
  } finally {
    process.off('exit', killReference);
    killReference();
  }
}

// Alone: one backend's gateway, the partner registered, the comparison, the table.
if (process.argv[1] && import.meta.url.endsWith(process.argv[1].replace(/^.*\//, '/'))) {
  const kind = (process.env.BENCH_BACKEND ?? 'pglite') as DatabaseKind;
  const workDir = mkdtempSync(join(tmpdir(), 'token-comparison-'));
  process.once('exit', () => rmSync(workDir, { recursive: true, force: true }));
  const adminToken = randomBytes(24).toString('hex');
  const loadAtStart = loadavg();
  const backend = await openBenchBackend(kind, { workDir, databaseUrl: process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test' });
  const gateway = await startGatewayProcess({ ...backend.env, MASTER_KEY: randomBytes(32).toString('hex'), ADMIN_TOKEN: adminToken, LOG_LEVEL: 'warn' }, { build: process.env.BENCH_MAIN ?? true, echo: false, inheritEnv: false });
  const rows: Row[] = [];
  const targets: Target[] = [];
  await compareWithOidcProvider({
    kind,
    gateway,
    key: await registerKeyPartner(gateway, adminToken),
    workDir,
    durationSec: Number(process.env.BENCH_DURATION ?? 10),
    warmupSec: Number(process.env.BENCH_WARMUP ?? 3),
    rounds: Number(process.env.BENCH_ROUNDS ?? 2),
    record: (scenario, result, extra) => {
      const row: Row = { backend: kind, scenario, rps: result.rps, p50: result.p50, p99: result.p99, failed: result.failed, ...extra };
      rows.push(row);
      process.stderr.write(`[${kind}] ${scenario}: ${result.rps} req/s, ${extra.cpuUsPerCall ?? '?'} µs CPU/call\n`);
      return row;
    },
    targets,
  });
  await stopGatewayProcess(gateway);
  await backend.close();
  printReport(rows, targets);
  console.log(`\nload average (1, 5, 15 min) at start ${loadAtStart.map((value) => value.toFixed(2)).join(' ')}, at end ${loadavg().map((value) => value.toFixed(2)).join(' ')}`);
  process.exit(0);
}
