/**
 * `npm run bench`: the gateway (production build, production mode) in its own process, on the embedded
 * default (a new DATA_DIR) and on PostgreSQL (a schema of its own in BENCH_DATABASE_URL, default the local
 * test database), loaded by autocannon from other processes, against ceilings measured in the same run on
 * the same machine. Prints a table and each goal met or not per backend, and writes bench/results.json.
 * BENCH_BACKENDS (default `pglite,postgres`) picks the backends, BENCH_DURATION the seconds per scenario,
 * BENCH_AUDIT_ROWS / BENCH_AUDIT_ROWS_EMBEDDED the audit rows of the search scenario, BENCH_WARMUP the seconds
 * of unmeasured load before each measured series (0: none), BENCH_LARGE=0 skips the 100 000-partner and
 * audit-rows scenarios (a quick before/after comparison), BENCH_MAIN one or more builds' main.js
 * (comma-separated) to run instead of dist/src/main.js, one after the other on each backend, against the
 * same ceilings (an A/B comparison in the same minutes), BENCH_NODE_ARGS node options for the gateway
 * process, BENCH_ROUNDS (default 3) the alternating rounds of issue 35's comparisons (bearer CPU against (a),
 * tokens against node-oidc-provider). See docs/performance.md.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { sql } from 'kysely';
import type { DatabaseKind } from '../src/db/database.js';
import { projectFile } from '../src/project-root.js';
import { startGatewayProcess, stopGatewayProcess } from '../test/support/gateway-process.js';
import type { LoadResult, LoadSpec } from './load.js';
import { openBenchBackend, type BenchBackend } from './support/bench-backend.js';
import { insertAuditRows, insertPartners } from './support/bulk-rows.js';
import { writeJwePaths } from './support/jwe-paths.js';
import { preparedCount } from './support/request-file.js';
import { answered, cpuMs, perCall, resetPeakRss, rssMb, runLoad, runLoadWithCpu } from './support/run-load.js';
import { printReport, searchQueries, type Row, type Target } from './support/bench-report.js';
import { benchOAuth, measureOAuthCeilings } from './oauth-scenarios.js';
import { compareBearerCpu } from './bearer-comparison.js';

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
/** Unmeasured load before each ceiling and after each gateway start that precedes measured scenarios (JIT, caches, pools). */
const WARMUP = Number(process.env.BENCH_WARMUP ?? Math.min(3, DURATION));
const LARGE = process.env.BENCH_LARGE !== '0';
/** Alternating rounds of the comparisons of issue 35 (10. bearer CPU against (a); 9a, 9b tokens against node-oidc-provider). */
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
/** Node options for the gateway process (space-separated), e.g. `--max-semi-space-size=4`: to try a setting on every scenario. */
const NODE_ARGS = (process.env.BENCH_NODE_ARGS ?? '').split(' ').filter(Boolean);
/** Builds to compare, labelled by their directory; the project's own build when unset. */
const MAINS = (process.env.BENCH_MAIN ?? '').split(',').filter(Boolean);
const BACKENDS = (process.env.BENCH_BACKENDS ?? 'pglite,postgres').split(',') as DatabaseKind[];
const AUDIT_ROWS: Record<DatabaseKind, number> = {
  postgres: Number(process.env.BENCH_AUDIT_ROWS ?? 10_000_000),
  // PGlite loads about a million rows a minute here and takes 0.8 GB of disk per million: see docs/performance.md.
  pglite: Number(process.env.BENCH_AUDIT_ROWS_EMBEDDED ?? 1_000_000),
};
const ADMIN_TOKEN = randomBytes(24).toString('hex');
const PASSWORD = 'benchmark partner password';
const workDir = mkdtempSync(join(tmpdir(), 'bench-'));
process.once('exit', () => rmSync(workDir, { recursive: true, force: true }));
const loadAtStart = loadavg();

const rows: Row[] = [];
const targets: Target[] = [];

function record(backend: Row['backend'], scenario: string, result: LoadResult, extra: Partial<Row> = {}): Row {
  const row: Row = { backend, scenario, rps: result.rps, p50: result.p50, p99: result.p99, failed: result.failed, ...extra };
  rows.push(row);
  process.stderr.write(`[${backend}] ${scenario}: ${result.rps} req/s, p50 ${result.p50} ms, p99 ${result.p99} ms, ${JSON.stringify(result.statuses)}\n`);
  return row;
}

/** A helper process that prints its URL (or result) as its first line. */
function firstLine(args: string[]): Promise<{ child: ChildProcess; line: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  process.once('exit', () => child.kill('SIGKILL'));
  return new Promise((resolve, reject) => {
    let buffer = '';
    child.stdout!.on('data', (chunk) => {
      buffer += String(chunk);
      if (buffer.includes('\n')) resolve({ child, line: buffer.slice(0, buffer.indexOf('\n')).trim() });
    });
    child.once('exit', (code) => reject(new Error(`${args[0]} exited with ${code}`)));
  });
}

// The ceilings first, each alone on the machine.
const bareBanks = await firstLine([projectFile('bench/ceilings/bare-banks-server.ts')]);
if (WARMUP > 0) await runLoad({ url: `${bareBanks.line}/banks`, method: 'POST', connections: 32, durationSec: WARMUP });
/** A ceiling's load, with its server's CPU per call. */
const ceilingLoad = (child: ChildProcess, spec: LoadSpec) => runLoadWithCpu(child.pid!, spec);
const ceilingASpec: LoadSpec = { url: `${bareBanks.line}/banks`, method: 'POST', connections: 32, durationSec: DURATION };
record('ceiling', '(a) bare route, pre-serialized bank list', ...(await ceilingLoad(bareBanks.child, ceilingASpec)));
const bareDecrypt = await firstLine([projectFile('bench/ceilings/bare-decrypt-server.ts')]);
const decryptPaths = await writeJwePaths(join(workDir, 'decrypt-paths.txt'), {
  jwksUrl: `${bareDecrypt.line}/jwks`,
  password: PASSWORD,
  count: 5_000,
  iatOffsetSec: 20,
  pathOf: (jwe) => `/decrypt?partnerPassword=${jwe}`,
});
// The bare route does not refuse a replay, so the warm-up may use the same JWEs.
if (WARMUP > 0) await runLoad({ url: bareDecrypt.line, method: 'POST', connections: 32, durationSec: WARMUP, pathsFile: decryptPaths });
const ceilingBSpec: LoadSpec = { url: bareDecrypt.line, method: 'POST', connections: 32, durationSec: DURATION, pathsFile: decryptPaths };
const ceilingB = record('ceiling', '(b) bare route, JWE decryption only', ...(await ceilingLoad(bareDecrypt.child, ceilingBSpec)));
/**
 * Ceilings (a) and (b) are measured again right before the scenario each one divides, and that measurement is
 * the one its ratio uses: on this machine the same load gave 35-45 % more in a run's first minute than ten
 * minutes later (a bearer scenario measured at the start against the same one later, 2026-11-22), so a
 * ceiling taken minutes before its scenario measured the machine's drift as much as the gateway. The bare
 * servers stay up, idle, in between.
 */
const adjacentCeiling = async (label: string, child: ChildProcess, spec: LoadSpec): Promise<Row> => record('ceiling', label, ...(await ceilingLoad(child, spec)));
const argon2 = await firstLine([projectFile('bench/ceilings/argon2-rate.ts'), String(DURATION), String(WARMUP)]);
const ceilingC = JSON.parse(argon2.line) as { rps: number; concurrency: number };
rows.push({ backend: 'ceiling', scenario: `(c) raw argon2id verifications (${ceilingC.concurrency} at once)`, rps: ceilingC.rps, p50: 0, p99: 0, failed: 0 });
const oauthCeilings = await measureOAuthCeilings({ workDir, durationSec: DURATION, warmupSec: WARMUP, record: (scenario, result, extra) => record('ceiling', scenario, result, extra) });

for (const backendKind of BACKENDS) {
  if (MAINS.length === 0) await benchBackend(await openBenchBackend(backendKind, { workDir, databaseUrl: DATABASE_URL }), true, backendKind);
  for (const [i, main] of MAINS.entries()) {
    const label = `${backendKind} ${basename(dirname(dirname(main)))}`;
    await benchBackend(await openBenchBackend(backendKind, { workDir, databaseUrl: DATABASE_URL, suffix: String(i) }), main, label);
  }
}

/** Every scenario on one backend with one build (`true`: dist/src/main.js), its rows labelled `kind`. */
async function benchBackend(backend: BenchBackend, build: true | string, kind: string): Promise<void> {
  const masterKey = randomBytes(32).toString('hex');
  let ports: { port: number; adminPort: number } | undefined;
  // Restarts come back on the same ports, so that URLs taken before stay right.
  const start = () => startGatewayProcess({ ...backend.env, MASTER_KEY: masterKey, ADMIN_TOKEN, LOG_LEVEL: 'warn' }, { build, echo: false, inheritEnv: false, ...(NODE_ARGS.length > 0 ? { nodeArgs: NODE_ARGS } : {}), ...ports });
  let gateway = await start();
  ports = { port: gateway.port, adminPort: gateway.adminPort };
  let ownLogins = 0;
  const firstStart = rssMb(gateway.process.pid!);
  process.stderr.write(`[${kind}] first start: peak RSS ${firstStart.peak} MB, now ${firstStart.now} MB\n`);
  const admin = (path: string, body: unknown) =>
    fetch(`${gateway.admin}${path}`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
  for (let i = 0; i < 10; i++) {
    const response = await admin('/admin/v1/partners', { login: `bench-${i}`, password: PASSWORD, ipAllowlist: ['127.0.0.1'], rewardTypes: ['sbp'] });
    if (response.status !== 201) throw new Error(`cannot create partner: ${await response.text()}`);
  }
  const login = async (name = 'bench-0') => {
    ownLogins++;
    const response = await fetch(`${gateway.base}/api/v1/login/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ login: name, password: PASSWORD }) });
    return ((await response.json()) as { access_token: string }).access_token;
  };
  /** One scenario, with its own peak RSS. */
  const measured = async (scenario: string, spec: LoadSpec, extra: Partial<Row> = {}) => {
    resetPeakRss(gateway.process.pid!);
    const [result, cpu] = await runLoadWithCpu(gateway.process.pid!, spec);
    return record(kind, scenario, result, { peakRssMb: rssMb(gateway.process.pid!).peak, ...cpu, ...extra });
  };
  const bearerSpec = async (connections = 32): Promise<LoadSpec> => ({
    url: `${gateway.base}/partner/provider/sbp/banks/`,
    method: 'POST',
    headers: { authorization: `Bearer ${await login()}` },
    connections,
    durationSec: DURATION,
  });
  const encryptedSpec = async (): Promise<LoadSpec> => ({
    url: gateway.base,
    method: 'POST',
    connections: 32,
    durationSec: DURATION,
    pathsFile: await writeJwePaths(join(workDir, `paths-${kind}.txt`), {
      jwksUrl: `${gateway.base}/.well-known/jwks.json`,
      password: PASSWORD,
      count: preparedCount(ceilingB.rps, DURATION),
      iatOffsetSec: 20,
      pathOf: (jwe) => `/partner/provider/sbp/banks/?partnerName=bench-0&partnerPassword=${jwe}&useAuthByCert=Y`,
    }),
    singleUse: true,
  });

  /**
   * Unmeasured load on the paths the next scenarios take, after a gateway start: JIT, caches and pools warm
   * (without it the first scenario ran cold, at 65-99 % of the same scenario measured later in the run).
   * Its calls are audited like any, before an accounting check counts anything. Its JWEs are its own.
   */
  const warmUp = async () => {
    if (WARMUP <= 0) return;
    const seconds = { durationSec: WARMUP };
    const warmJwes = await writeJwePaths(join(workDir, `warm-${kind}.txt`), {
      jwksUrl: `${gateway.base}/.well-known/jwks.json`,
      password: PASSWORD,
      count: preparedCount(ceilingB.rps, WARMUP),
      iatOffsetSec: 20,
      pathOf: (jwe) => `/partner/provider/sbp/banks/?partnerName=bench-0&partnerPassword=${jwe}&useAuthByCert=Y`,
    });
    await runLoad({ ...(await bearerSpec()), ...seconds });
    await runLoad({ url: gateway.base, method: 'POST', connections: 32, pathsFile: warmJwes, singleUse: true, ...seconds });
    await runLoad({ ...loginSpec, ...seconds });
  };
  const loginSpec: LoadSpec = { url: `${gateway.base}/api/v1/login/`, method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ login: 'bench-1', password: PASSWORD }), connections: 16, durationSec: DURATION };

  const pct = (ratio: number) => `${Math.round(ratio * 100)}%`;

  // 1-4 with ten partners.
  await warmUp();
  const nearA = await adjacentCeiling(`(a) again, right before ${kind} 1.`, bareBanks.child, ceilingASpec);
  const bearer = await measured('1. banks, bearer token', await bearerSpec(), { ceiling: '(a) again' });
  bearer.ratio = bearer.rps / nearA.rps;
  const nearB = await adjacentCeiling(`(b) again, right before ${kind} 2.`, bareDecrypt.child, ceilingBSpec);
  // Issue 35: the bearer call's CPU against the bare route's, in alternating rounds right after 1.
  await compareBearerCpu({
    kind,
    bare: { label: 'bare route (a)', pid: bareBanks.child.pid!, spec: ceilingASpec },
    gateways: [{ label: `${kind} gateway`, pid: gateway.process.pid!, spec: await bearerSpec() }],
    rounds: ROUNDS,
    warmupSec: 0,
    record: (scenario, result, extra) => record(scenario.includes('bare route') ? 'ceiling' : kind, scenario, result, extra),
    targets,
  });
  const encrypted = await measured('2. banks, encrypted password', await encryptedSpec(), { ceiling: '(b) again' });
  encrypted.ratio = encrypted.rps / nearB.rps;
  const loginRow = await measured('3. login', loginSpec, { ceiling: '(c)' });
  loginRow.ratio = loginRow.rps / ceilingC.rps;
  resetPeakRss(gateway.process.pid!);
  const duringSpec = await bearerSpec(8);
  const stormCpu = cpuMs(gateway.process.pid!);
  const [storm, during] = await Promise.all([runLoad({ ...loginSpec, connections: 64 }), runLoad(duringSpec)]);
  // The CPU of both loads, per login (the bearer calls beside them are cheap by comparison).
  const stormCpuPerCall = perCall(cpuMs(gateway.process.pid!) - stormCpu, storm);
  record(kind, '4. login storm (64 connections), alongside:', storm, stormCpuPerCall === undefined ? {} : { cpuUsPerCall: stormCpuPerCall });
  const duringRow = record(kind, '4. banks, bearer token, during the login storm', during, { peakRssMb: rssMb(gateway.process.pid!).peak });
  const steady = rssMb(gateway.process.pid!);
  // Issue 13: client-credentials tokens (d, e) and DPoP-bound banks calls, in bench/oauth-scenarios.ts.
  await benchOAuth({
    kind,
    gateway,
    adminToken: ADMIN_TOKEN,
    workDir,
    durationSec: DURATION,
    warmupSec: WARMUP,
    ceilings: oauthCeilings,
    measured,
    record: (scenario, result, extra) => record(scenario.includes('node-oidc-provider') ? 'reference' : kind, scenario, result, extra),
    rounds: ROUNDS,
    targets,
  });

  // Every answered call is in the audit trail: a fixed number of bearer and encrypted-password banks calls
  // and logins (autocannon's `amount`: none in flight when it ends), then the entries counted with the
  // gateway stopped (its shutdown writes what is queued). Each entry counts the calls it stands for.
  const before = await auditedCalls();
  const loginsBefore = ownLogins;
  const counted = await Promise.all([
    runLoad({ ...(await bearerSpec(16)), amount: 20_000 }),
    runLoad({ ...(await encryptedSpec()), connections: 8, amount: 2_000 }),
    runLoad({ ...loginSpec, connections: 4, amount: 100 }),
  ]);
  const after = await auditedCalls();
  const answeredBanks = answered(counted[0]) + answered(counted[1]);
  const answeredLogins = answered(counted[2]) + ownLogins - loginsBefore;
  targets.push({
    backend: kind,
    target: 'every answered call is accounted for in the audit trail (sum of entry counts = answers)',
    met: after.banks - before.banks === answeredBanks && after.login - before.login === answeredLogins,
    value: `banks ${after.banks - before.banks} / ${answeredBanks} answered, login ${after.login - before.login} / ${answeredLogins}; unanswered ${counted.map((result) => result.unanswered).join(' / ')}`,
  });
  async function auditedCalls(): Promise<{ banks: number; login: number }> {
    await stopGatewayProcess(gateway);
    const counts = await backend.withDatabase(async (db) => {
      const { rows: found } = await sql<{ action: string; calls: string }>`select action, sum(count) as calls from audit_log where action in ('banks', 'login') group by action`.execute(db);
      return Object.fromEntries(found.map((row) => [row.action, Number(row.calls)]));
    });
    gateway = await start();
    return { banks: counts.banks ?? 0, login: counts.login ?? 0 };
  }

  if (LARGE) await largeScenarios();
  async function largeScenarios(): Promise<void> {
    // The same two scenarios again right before, with ten partners, as what the large ones are compared with
    // (scenarios 1 and 2 ran minutes ago: see adjacentCeiling).
    const baseBearer = record(kind, '1. again, before the 100k partners', await runLoad(await bearerSpec()));
    const baseEncrypted = record(kind, '2. again, before the 100k partners', await runLoad(await encryptedSpec()));
    // 100 000 partners: inserted straight into the stopped gateway's database.
    await stopGatewayProcess(gateway);
    await backend.withDatabase((db) => insertPartners(db, 100_000, 'bulk partner password'));
    gateway = await start();
    await warmUp();
    const manyBearer = record(kind, '100k partners: 1. banks, bearer token', await runLoad(await bearerSpec()), { ceiling: '1. again' });
    manyBearer.ratio = manyBearer.rps / baseBearer.rps;
    const manyEncrypted = record(kind, '100k partners: 2. banks, encrypted password', await runLoad(await encryptedSpec()), { ceiling: '2. again' });
    manyEncrypted.ratio = manyEncrypted.rps / baseEncrypted.rps;

    // The audit search with millions of rows: filters, cursor pages and the console's partner activity.
    await stopGatewayProcess(gateway);
    const auditRows = AUDIT_ROWS[backend.name];
    const loadStarted = Date.now();
    await backend.withDatabase((db) => insertAuditRows(db, backend.name, auditRows, 30, (done) => process.stderr.write(`[${kind}] ${done} audit rows\n`)));
    process.stderr.write(`[${kind}] ${auditRows} audit rows loaded in ${Math.round((Date.now() - loadStarted) / 1000)} s\n`);
    gateway = await start();
    await warmUp();
    const searchPaths = join(workDir, `search-${kind}.txt`);
    writeFileSync(searchPaths, searchQueries(auditRows).join('\n'));
    const search = await measured(`5. audit search and partner activity, ${(auditRows / 1e6).toFixed(1)}M rows`, {
      url: gateway.admin,
      method: 'GET',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      connections: 4,
      durationSec: DURATION,
      pathsFile: searchPaths,
    });
    const bearerWithRows = record(kind, `${(auditRows / 1e6).toFixed(1)}M audit rows: 1. banks, bearer token`, await runLoad(await bearerSpec()), { ceiling: '1. again' });
    bearerWithRows.ratio = bearerWithRows.rps / baseBearer.rps;
    targets.push(
      { backend: kind, target: '100k partners: bearer banks >= 90% of 1.', met: manyBearer.ratio >= 0.9, value: pct(manyBearer.ratio) },
      { backend: kind, target: '100k partners: encrypted banks >= 90% of 2.', met: manyEncrypted.ratio >= 0.9, value: pct(manyEncrypted.ratio) },
      { backend: kind, target: `${(auditRows / 1e6).toFixed(1)}M audit rows: bearer banks >= 90% of 1.`, met: bearerWithRows.ratio >= 0.9, value: pct(bearerWithRows.ratio) },
      { backend: kind, target: `audit search p99 <= 100 ms with ${(auditRows / 1e6).toFixed(1)}M rows`, met: search.p99 <= 100 && search.failed === 0, value: `${search.p99} ms, ${search.failed} failed` },
    );
  }
  await stopGatewayProcess(gateway);
  await backend.close();

  const peak = Math.max(...rows.filter((row) => row.backend === kind).map((row) => row.peakRssMb ?? 0));
  targets.push(
    { backend: kind, target: 'bearer banks >= 50% of (a)', met: bearer.ratio >= 0.5, value: pct(bearer.ratio) },
    { backend: kind, target: 'encrypted-password banks >= 85% of (b)', met: encrypted.ratio >= 0.85, value: pct(encrypted.ratio) },
    { backend: kind, target: 'login >= 90% of (c)', met: loginRow.ratio! >= 0.9, value: pct(loginRow.ratio!) },
    { backend: kind, target: 'bearer banks p99 <= 25 ms during the login storm', met: duringRow.p99 <= 25 && answered(during) > 0, value: `${duringRow.p99} ms, ${answered(during)} answers` },
    backend.name === 'postgres'
      ? { backend: kind, target: 'peak RSS <= 200 MB', met: peak <= 200, value: `${peak} MB` }
      : { backend: kind, target: 'peak RSS (reported: first start on a new DATA_DIR, steady state under load)', met: true, value: `first start ${firstStart.peak} MB, under load ${peak} MB, after the scenarios ${steady.now} MB` },
  );
}

printReport(rows, targets);
const machine = { loadAverageAtStart: loadAtStart.map((value) => Math.round(value * 100) / 100), loadAverageAtEnd: loadavg().map((value) => Math.round(value * 100) / 100) };
console.log(`\nload average (1, 5, 15 min) at start ${machine.loadAverageAtStart.join(' ')}, at end ${machine.loadAverageAtEnd.join(' ')}`);
writeFileSync(projectFile('bench/results.json'), `${JSON.stringify({ at: new Date().toISOString(), durationSec: DURATION, node: process.version, backends: BACKENDS, auditRows: AUDIT_ROWS, machine, rows, targets }, null, 2)}\n`);
process.exit(0);
