/**
 * `npm run bench`: the gateway (production build, production mode, on PostgreSQL as in production: a schema
 * of its own in BENCH_DATABASE_URL, default the local test database) in its own process,
 * loaded by autocannon from other processes, against ceilings measured in the same run on the same machine.
 * Prints a table and writes bench/results.json. See docs/performance.md for the method and the numbers.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { encryptPassword } from '@partner-gateway/client';
import { importJWK, type JWK } from 'jose';
import pg from 'pg';
import { hashPassword } from '../src/partners/password-hasher.js';
import { projectFile } from '../src/project-root.js';
import type { LoadResult, LoadSpec } from './load.js';

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const SCHEMA = `bench_${randomBytes(4).toString('hex')}`;
const ADMIN_TOKEN = randomBytes(24).toString('hex');
const MASTER_KEY = randomBytes(32).toString('hex');
const PASSWORD = 'benchmark partner password';
const tsx = ['--import', 'tsx'];

interface Row {
  scenario: string;
  rps: number;
  p50: number;
  p99: number;
  failed: number;
  peakRssMb?: number;
  ceiling?: string;
  ratio?: number;
}
const rows: Row[] = [];
const children: ChildProcess[] = [];
process.on('exit', () => children.forEach((child) => child.kill('SIGKILL')));

function start(command: string, args: string[], env: Record<string, string> = {}): ChildProcess {
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
  children.push(child);
  return child;
}

function firstLine(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let buffer = '';
    child.stdout!.on('data', (chunk) => {
      buffer += String(chunk);
      const newline = buffer.indexOf('\n');
      if (newline !== -1) resolve(buffer.slice(0, newline).trim());
    });
    child.on('exit', (code) => reject(new Error(`process exited with ${code}`)));
  });
}

async function load(spec: LoadSpec): Promise<LoadResult> {
  const child = start(process.execPath, [...tsx, projectFile('bench/load.ts'), JSON.stringify(spec)]);
  return JSON.parse(await firstLine(child)) as LoadResult;
}

const peakRssMb = (pid: number) => Math.round(Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024);
function resetPeak(pid: number): void {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {
    // Not permitted here: the peak then covers the whole run so far, an upper bound.
  }
}

async function waitReady(url: string): Promise<void> {
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(`${url}/readyz`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('the gateway did not become ready');
}

async function sqlQuery(text: string, values: unknown[] = []): Promise<void> {
  const client = new pg.Client({ connectionString: DATABASE_URL });
  await client.connect();
  try {
    await client.query(text, values);
  } finally {
    await client.end();
  }
}

async function startGateway(dataDir: string, port: number, adminPort: number) {
  const child = start(process.execPath, [projectFile('dist/src/main.js')], {
    NODE_ENV: 'production',
    PUBLIC_URL: `http://127.0.0.1:${port}`,
    DATA_DIR: dataDir,
    DATABASE_URL: `${DATABASE_URL}${DATABASE_URL.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${SCHEMA}`)}`,
    MASTER_KEY,
    HOST: '127.0.0.1',
    PORT: String(port),
    ADMIN_PORT: String(adminPort),
    ADMIN_TOKEN,
    LOG_LEVEL: 'warn',
  });
  child.stdout!.resume();
  await waitReady(`http://127.0.0.1:${port}`);
  return child;
}

async function stop(child: ChildProcess): Promise<void> {
  await new Promise((resolve) => {
    child.once('exit', resolve);
    child.kill('SIGTERM');
  });
}

async function jwePaths(jwksUrl: string, pathOf: (jwe: string) => string, count: number): Promise<string> {
  const { keys } = (await (await fetch(jwksUrl)).json()) as { keys: JWK[] };
  const jwk = keys.find((key) => key.use === 'enc')!;
  const key = await importJWK(jwk, 'RSA-OAEP-256');
  const lines: string[] = [];
  for (let i = 0; i < count; i++) {
    const jwe = await encryptPassword(PASSWORD, { kid: jwk.kid!, key }, { now: () => Date.now() + 20_000 });
    lines.push(pathOf(jwe));
  }
  const file = join(mkdtempSync(join(tmpdir(), 'bench-')), 'paths.txt');
  writeFileSync(file, lines.join('\n'));
  return file;
}

function record(scenario: string, result: LoadResult, extra: Partial<Row> = {}): Row {
  const row: Row = { scenario, rps: result.rps, p50: result.p50, p99: result.p99, failed: result.failed, ...extra };
  rows.push(row);
  process.stderr.write(`${scenario}: ${result.rps} req/s, p50 ${result.p50} ms, p99 ${result.p99} ms, ${JSON.stringify(result.statuses)}\n`);
  return row;
}

// The ceilings first, each alone on the machine.
const bareBanks = start(process.execPath, [...tsx, projectFile('bench/ceilings/bare-banks-server.ts')]);
const bareBanksUrl = await firstLine(bareBanks);
const ceilingA = record('(a) bare route, pre-serialized bank list', await load({ url: `${bareBanksUrl}/banks`, method: 'POST', connections: 32, durationSec: DURATION }));
bareBanks.kill();

const bareDecrypt = start(process.execPath, [...tsx, projectFile('bench/ceilings/bare-decrypt-server.ts')]);
const bareDecryptUrl = await firstLine(bareDecrypt);
const decryptPaths = await jwePaths(`${bareDecryptUrl}/jwks`, (jwe) => `/decrypt?partnerPassword=${jwe}`, 5_000);
const ceilingB = record('(b) bare route, JWE decryption only', await load({ url: bareDecryptUrl, method: 'POST', connections: 32, durationSec: DURATION, pathsFile: decryptPaths }));
bareDecrypt.kill();

const argon2 = start(process.execPath, [...tsx, projectFile('bench/ceilings/argon2-rate.ts'), String(DURATION)]);
const ceilingC = JSON.parse(await firstLine(argon2)) as { rps: number; concurrency: number };
rows.push({ scenario: `(c) raw argon2id verifications (${ceilingC.concurrency} at once)`, rps: ceilingC.rps, p50: 0, p99: 0, failed: 0 });
process.stderr.write(`(c) argon2: ${ceilingC.rps}/s\n`);

// The gateway, on a schema of its own.
await sqlQuery(`create schema ${SCHEMA}`);
process.on('exit', () => {
  spawn('psql', [DATABASE_URL, '-c', `drop schema if exists ${SCHEMA} cascade`], { stdio: 'ignore', detached: true }).unref();
});
const dataDir = mkdtempSync(join(tmpdir(), 'bench-gateway-'));
const port = 18_000 + Math.floor(Math.random() * 1000);
const base = `http://127.0.0.1:${port}`;
let gateway = await startGateway(dataDir, port, port + 1);
const admin = (path: string, body: unknown) =>
  fetch(`http://127.0.0.1:${port + 1}${path}`, { method: 'POST', headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
for (let i = 0; i < 10; i++) {
  const response = await admin('/admin/v1/partners', { login: `bench-${i}`, password: PASSWORD, ipAllowlist: ['127.0.0.1'], rewardTypes: ['sbp'] });
  if (response.status !== 201) throw new Error(`cannot create partner: ${await response.text()}`);
}
const login = async () =>
  ((await (await fetch(`${base}/api/v1/login/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ login: 'bench-0', password: PASSWORD }) })).json()) as { access_token: string }).access_token;
const banksUrl = `${base}/partner/provider/sbp/banks/`;

async function gatewayScenarios(label: string) {
  const token = await login();
  resetPeak(gateway.pid!);
  const bearer = record(`${label}1. banks, bearer token`, await load({ url: banksUrl, method: 'POST', headers: { authorization: `Bearer ${token}` }, connections: 32, durationSec: DURATION }));
  bearer.peakRssMb = peakRssMb(gateway.pid!);
  const paths = await jwePaths(`${base}/.well-known/jwks.json`, (jwe) => `/partner/provider/sbp/banks/?partnerName=bench-0&partnerPassword=${jwe}&useAuthByCert=Y`, Math.max(5_000, ceilingB.rps * DURATION * 1.2));
  resetPeak(gateway.pid!);
  const encrypted = record(`${label}2. banks, encrypted password`, await load({ url: base, method: 'POST', connections: 32, durationSec: DURATION, pathsFile: paths }));
  encrypted.peakRssMb = peakRssMb(gateway.pid!);
  return { bearer, encrypted };
}

const few = await gatewayScenarios('');
few.bearer.ceiling = '(a)';
few.bearer.ratio = few.bearer.rps / ceilingA.rps;
few.encrypted.ceiling = '(b)';
few.encrypted.ratio = few.encrypted.rps / ceilingB.rps;

const loginBody = JSON.stringify({ login: 'bench-1', password: PASSWORD });
resetPeak(gateway.pid!);
const loginRow = record('3. login', await load({ url: `${base}/api/v1/login/`, method: 'POST', headers: { 'content-type': 'application/json' }, body: loginBody, connections: 16, durationSec: DURATION }), { ceiling: '(c)' });
loginRow.ratio = loginRow.rps / ceilingC.rps;
loginRow.peakRssMb = peakRssMb(gateway.pid!);

resetPeak(gateway.pid!);
const stormToken = await login();
const [storm, during] = await Promise.all([
  load({ url: `${base}/api/v1/login/`, method: 'POST', headers: { 'content-type': 'application/json' }, body: loginBody, connections: 64, durationSec: DURATION }),
  load({ url: banksUrl, method: 'POST', headers: { authorization: `Bearer ${stormToken}` }, connections: 8, durationSec: DURATION }),
]);
record('4. login storm (64 connections), alongside:', storm);
const duringRow = record('4. banks, bearer token, during the login storm', during);
duringRow.peakRssMb = peakRssMb(gateway.pid!);

// 100 000 partners: inserted straight into the stopped gateway's database, all with one password hash.
await stop(gateway);
await sqlQuery(
  `insert into ${SCHEMA}.partners (id, login, password_hash, status, ip_allowlist, reward_types)
   select gen_random_uuid(), 'bulk-' || g, $1, 'active', '["127.0.0.1/32"]'::jsonb, '["sbp"]'::jsonb from generate_series(1, 100000) g`,
  [await hashPassword('bulk partner password')],
);
await sqlQuery(`analyze ${SCHEMA}.partners`);
gateway = await startGateway(dataDir, port, port + 1);
const many = await gatewayScenarios('100k partners: ');
many.bearer.ceiling = '1.';
many.bearer.ratio = many.bearer.rps / few.bearer.rps;
many.encrypted.ceiling = '2.';
many.encrypted.ratio = many.encrypted.rps / few.encrypted.rps;
await stop(gateway);
await sqlQuery(`drop schema ${SCHEMA} cascade`);

const targets = [
  { target: 'bearer banks >= 50% of (a)', met: few.bearer.ratio >= 0.5, value: `${Math.round(few.bearer.ratio * 100)}%` },
  { target: 'encrypted-password banks >= 70% of (b)', met: few.encrypted.ratio >= 0.7, value: `${Math.round(few.encrypted.ratio * 100)}%` },
  { target: 'login >= 80% of (c)', met: loginRow.ratio >= 0.8, value: `${Math.round(loginRow.ratio * 100)}%` },
  { target: 'bearer banks p99 <= 25 ms during the login storm', met: during.p99 <= 25, value: `${during.p99} ms` },
  { target: 'peak RSS <= 250 MB', met: rows.every((row) => (row.peakRssMb ?? 0) <= 250), value: `${Math.max(...rows.map((row) => row.peakRssMb ?? 0))} MB` },
  { target: 'bearer banks with 100k partners >= 90% of 10', met: many.bearer.ratio! >= 0.9, value: `${Math.round(many.bearer.ratio! * 100)}%` },
  { target: 'encrypted banks with 100k partners >= 90% of 10', met: many.encrypted.ratio! >= 0.9, value: `${Math.round(many.encrypted.ratio! * 100)}%` },
];

const pad = (text: string, width: number) => text.padEnd(width);
console.log(`\n${pad('scenario', 52)} ${pad('req/s', 8)} ${pad('p50 ms', 7)} ${pad('p99 ms', 7)} ${pad('failed', 7)} ${pad('ratio', 12)} peak RSS`);
for (const row of rows) {
  const ratio = row.ratio === undefined ? '' : `${Math.round(row.ratio * 100)}% of ${row.ceiling}`;
  console.log(`${pad(row.scenario, 52)} ${pad(String(row.rps), 8)} ${pad(String(row.p50), 7)} ${pad(String(row.p99), 7)} ${pad(String(row.failed), 7)} ${pad(ratio, 12)} ${row.peakRssMb === undefined ? '' : `${row.peakRssMb} MB`}`);
}
console.log('');
for (const target of targets) console.log(`${target.met ? 'met    ' : 'NOT MET'} ${target.target}: ${target.value}`);
writeFileSync(projectFile('bench/results.json'), `${JSON.stringify({ at: new Date().toISOString(), durationSec: DURATION, node: process.version, database: 'postgresql', rows, targets }, null, 2)}\n`);
process.exit(0);
