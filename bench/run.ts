/**
 * `npm run bench`: the gateway (production build, production mode) in its own process, on the embedded
 * default (a new DATA_DIR) and on PostgreSQL (a schema of its own in BENCH_DATABASE_URL, default the local
 * test database), loaded by autocannon from other processes, against ceilings measured in the same run on
 * the same machine. Prints a table and each goal met or not per backend, and writes bench/results.json.
 * BENCH_BACKENDS (default `pglite,postgres`) picks the backends, BENCH_DURATION the seconds per scenario,
 * BENCH_AUDIT_ROWS / BENCH_AUDIT_ROWS_EMBEDDED the audit rows of the search scenario. See docs/performance.md.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import type { DatabaseKind } from '../src/db/database.js';
import { projectFile } from '../src/project-root.js';
import { startGatewayProcess, stopGatewayProcess } from '../test/support/gateway-process.js';
import type { LoadResult, LoadSpec } from './load.js';
import { openBenchBackend, type BenchBackend } from './support/bench-backend.js';
import { insertAuditRows, insertPartners } from './support/bulk-rows.js';
import { writeJwePaths } from './support/jwe-paths.js';
import { answered, resetPeakRss, rssMb, runLoad } from './support/run-load.js';
import { printReport, searchQueries, type Row, type Target } from './support/bench-report.js';
import { benchOAuth, measureOAuthCeilings } from './oauth-scenarios.js';

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
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
const ceilingA = record('ceiling', '(a) bare route, pre-serialized bank list', await runLoad({ url: `${bareBanks.line}/banks`, method: 'POST', connections: 32, durationSec: DURATION }));
bareBanks.child.kill();
const bareDecrypt = await firstLine([projectFile('bench/ceilings/bare-decrypt-server.ts')]);
const decryptPaths = await writeJwePaths(join(workDir, 'decrypt-paths.txt'), {
  jwksUrl: `${bareDecrypt.line}/jwks`,
  password: PASSWORD,
  count: 5_000,
  iatOffsetSec: 20,
  pathOf: (jwe) => `/decrypt?partnerPassword=${jwe}`,
});
const ceilingB = record('ceiling', '(b) bare route, JWE decryption only', await runLoad({ url: bareDecrypt.line, method: 'POST', connections: 32, durationSec: DURATION, pathsFile: decryptPaths }));
bareDecrypt.child.kill();
const argon2 = await firstLine([projectFile('bench/ceilings/argon2-rate.ts'), String(DURATION)]);
const ceilingC = JSON.parse(argon2.line) as { rps: number; concurrency: number };
rows.push({ backend: 'ceiling', scenario: `(c) raw argon2id verifications (${ceilingC.concurrency} at once)`, rps: ceilingC.rps, p50: 0, p99: 0, failed: 0 });
const oauthCeilings = await measureOAuthCeilings({ workDir, durationSec: DURATION, record: (scenario, result) => record('ceiling', scenario, result) });

for (const kind of BACKENDS) await benchBackend(await openBenchBackend(kind, { workDir, databaseUrl: DATABASE_URL }));

async function benchBackend(backend: BenchBackend): Promise<void> {
  const kind = backend.name;
  const masterKey = randomBytes(32).toString('hex');
  let ports: { port: number; adminPort: number } | undefined;
  // Restarts come back on the same ports, so that URLs taken before stay right.
  const start = () => startGatewayProcess({ ...backend.env, MASTER_KEY: masterKey, ADMIN_TOKEN, LOG_LEVEL: 'warn' }, { build: true, echo: false, inheritEnv: false, ...ports });
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
    const result = await runLoad(spec);
    return record(kind, scenario, result, { peakRssMb: rssMb(gateway.process.pid!).peak, ...extra });
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
      count: Math.max(5_000, Math.round(ceilingB.rps * DURATION * 1.2)),
      iatOffsetSec: 20,
      pathOf: (jwe) => `/partner/provider/sbp/banks/?partnerName=bench-0&partnerPassword=${jwe}&useAuthByCert=Y`,
    }),
  });

  // 1-4 with ten partners.
  const bearer = await measured('1. banks, bearer token', await bearerSpec(), { ceiling: '(a)' });
  bearer.ratio = bearer.rps / ceilingA.rps;
  const encrypted = await measured('2. banks, encrypted password', await encryptedSpec(), { ceiling: '(b)' });
  encrypted.ratio = encrypted.rps / ceilingB.rps;
  const loginSpec: LoadSpec = { url: `${gateway.base}/api/v1/login/`, method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ login: 'bench-1', password: PASSWORD }), connections: 16, durationSec: DURATION };
  const loginRow = await measured('3. login', loginSpec, { ceiling: '(c)' });
  loginRow.ratio = loginRow.rps / ceilingC.rps;
  resetPeakRss(gateway.process.pid!);
  const duringSpec = await bearerSpec(8);
  const [storm, during] = await Promise.all([runLoad({ ...loginSpec, connections: 64 }), runLoad(duringSpec)]);
  record(kind, '4. login storm (64 connections), alongside:', storm);
  const duringRow = record(kind, '4. banks, bearer token, during the login storm', during, { peakRssMb: rssMb(gateway.process.pid!).peak });
  const steady = rssMb(gateway.process.pid!);
  // Issue 13: client-credentials tokens (d, e) and DPoP-bound banks calls, in bench/oauth-scenarios.ts.
  await benchOAuth({ kind, gateway, adminToken: ADMIN_TOKEN, workDir, durationSec: DURATION, ceilings: oauthCeilings, measured, targets });

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
    value: `banks ${after.banks - before.banks} / ${answeredBanks} answered, login ${after.login - before.login} / ${answeredLogins}`,
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

  // 100 000 partners: inserted straight into the stopped gateway's database.
  await stopGatewayProcess(gateway);
  await backend.withDatabase((db) => insertPartners(db, 100_000, 'bulk partner password'));
  gateway = await start();
  const manyBearer = record(kind, '100k partners: 1. banks, bearer token', await runLoad(await bearerSpec()), { ceiling: '1.' });
  manyBearer.ratio = manyBearer.rps / bearer.rps;
  const manyEncrypted = record(kind, '100k partners: 2. banks, encrypted password', await runLoad(await encryptedSpec()), { ceiling: '2.' });
  manyEncrypted.ratio = manyEncrypted.rps / encrypted.rps;

  // The audit search with millions of rows: filters, cursor pages and the console's partner activity.
  await stopGatewayProcess(gateway);
  const auditRows = AUDIT_ROWS[kind];
  const loadStarted = Date.now();
  await backend.withDatabase((db) => insertAuditRows(db, kind, auditRows, 30, (done) => process.stderr.write(`[${kind}] ${done} audit rows\n`)));
  process.stderr.write(`[${kind}] ${auditRows} audit rows loaded in ${Math.round((Date.now() - loadStarted) / 1000)} s\n`);
  gateway = await start();
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
  const bearerWithRows = record(kind, `${(auditRows / 1e6).toFixed(1)}M audit rows: 1. banks, bearer token`, await runLoad(await bearerSpec()), { ceiling: '1.' });
  bearerWithRows.ratio = bearerWithRows.rps / bearer.rps;
  await stopGatewayProcess(gateway);
  await backend.close();

  const peak = Math.max(...rows.filter((row) => row.backend === kind).map((row) => row.peakRssMb ?? 0));
  const pct = (ratio: number) => `${Math.round(ratio * 100)}%`;
  targets.push(
    { backend: kind, target: 'bearer banks >= 50% of (a)', met: bearer.ratio >= 0.5, value: pct(bearer.ratio) },
    { backend: kind, target: 'encrypted-password banks >= 85% of (b)', met: encrypted.ratio >= 0.85, value: pct(encrypted.ratio) },
    { backend: kind, target: 'login >= 90% of (c)', met: loginRow.ratio! >= 0.9, value: pct(loginRow.ratio!) },
    { backend: kind, target: 'bearer banks p99 <= 25 ms during the login storm', met: duringRow.p99 <= 25, value: `${duringRow.p99} ms` },
    kind === 'postgres'
      ? { backend: kind, target: 'peak RSS <= 200 MB', met: peak <= 200, value: `${peak} MB` }
      : { backend: kind, target: 'peak RSS (reported: first start on a new DATA_DIR, steady state under load)', met: true, value: `first start ${firstStart.peak} MB, under load ${peak} MB, after the scenarios ${steady.now} MB` },
    { backend: kind, target: '100k partners: bearer banks >= 90% of 1.', met: manyBearer.ratio >= 0.9, value: pct(manyBearer.ratio) },
    { backend: kind, target: '100k partners: encrypted banks >= 90% of 2.', met: manyEncrypted.ratio >= 0.9, value: pct(manyEncrypted.ratio) },
    { backend: kind, target: `${(auditRows / 1e6).toFixed(1)}M audit rows: bearer banks >= 90% of 1.`, met: bearerWithRows.ratio >= 0.9, value: pct(bearerWithRows.ratio) },
    { backend: kind, target: `audit search p99 <= 100 ms with ${(auditRows / 1e6).toFixed(1)}M rows`, met: search.p99 <= 100 && search.failed === 0, value: `${search.p99} ms, ${search.failed} failed` },
  );
}

printReport(rows, targets);
const machine = { loadAverageAtStart: loadAtStart.map((value) => Math.round(value * 100) / 100), loadAverageAtEnd: loadavg().map((value) => Math.round(value * 100) / 100) };
console.log(`\nload average (1, 5, 15 min) at start ${machine.loadAverageAtStart.join(' ')}, at end ${machine.loadAverageAtEnd.join(' ')}`);
writeFileSync(projectFile('bench/results.json'), `${JSON.stringify({ at: new Date().toISOString(), durationSec: DURATION, node: process.version, backends: BACKENDS, auditRows: AUDIT_ROWS, machine, rows, targets }, null, 2)}\n`);
process.exit(0);
