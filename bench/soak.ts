/**
 * `npm run soak`: a bounded soak test. The production build (`npm run soak` builds it first), in production
 * mode, on PostgreSQL in a schema of its own (BENCH_DATABASE_URL, else TEST_DATABASE_URL, else the local test
 * database), under a moderate mixed load for SOAK_MINUTES (default 10): bearer-token banks calls,
 * encrypted-password banks calls with fresh JWEs, logins and a chain of refreshes. The HTTP load comes from
 * autocannon in separate processes (one per kind, restarted every round so that the JWEs stay fresh and the
 * access token never expires); the refresh chain runs here, one at a time. The gateway's RSS is sampled
 * every 10 s from /proc/<pid>/status.
 *
 * It prints requests served, errors (any non-2xx or socket error: must be 0), RSS at minute 1 and at the end
 * and the growth between them (must be under 10 %), writes bench/soak-results.json, and exits 1 when a
 * target is missed. It stops by itself (a watchdog ends it a few minutes after its planned end) and talks to
 * 127.0.0.1 only: it refuses a database elsewhere.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectFile } from '../src/project-root.js';
import { startGatewayProcess, stopGatewayProcess } from '../test/support/gateway-process.js';
import type { LoadResult, LoadSpec } from './load.js';
import { openBenchBackend } from './support/bench-backend.js';
import { writeJwePaths } from './support/jwe-paths.js';
import { rssMb as readRss, runLoad } from './support/run-load.js';

await soak();

async function soak(): Promise<void> {
  const MINUTES = Number(process.env.SOAK_MINUTES ?? 10);
  if (!(MINUTES >= 2)) throw new Error('SOAK_MINUTES must be at least 2 (RSS is compared from minute 1 on)');
  const DATABASE_URL = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
  const databaseHost = new URL(DATABASE_URL).hostname;
  if (!['127.0.0.1', 'localhost', '[::1]'].includes(databaseHost)) {
    throw new Error(`the soak talks to 127.0.0.1 only; the database is on ${databaseHost}`);
  }
  const ADMIN_TOKEN = randomBytes(24).toString('hex');
  const PASSWORD = 'soak partner password';
  const LOGIN = 'soak';
  const ROUND_SEC = 30;
  const SAMPLE_MS = 10_000;
  /** Requests per second of each kind: moderate, far under the gateway's capacity (docs/performance.md). */
  const RATES = { bearerBanks: 100, encryptedBanks: 40, login: 4, refresh: 1 };

  const workDir = mkdtempSync(join(tmpdir(), 'soak-'));
  process.on('exit', () => rmSync(workDir, { recursive: true, force: true }));
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(130));
  // The watchdog: whatever happens, the soak ends a few minutes after its planned end.
  setTimeout(() => {
    process.stderr.write('soak: watchdog expired, stopping\n');
    process.exit(1);
  }, (MINUTES * 60 + 300) * 1000).unref();

  // The gateway: production build, production mode, a schema of its own, and an environment of its settings
  // only (nothing inherited, so no REDIS_URL or other host from the caller).
  const backend = await openBenchBackend('postgres', { workDir, databaseUrl: DATABASE_URL });
  const gateway = await startGatewayProcess(
    { ...backend.env, MASTER_KEY: randomBytes(32).toString('hex'), ADMIN_TOKEN, LOG_LEVEL: 'info' },
    { build: true, echo: false, inheritEnv: false },
  );
  const { base: publicUrl, admin: adminUrl } = gateway;
  /** Lines of the gateway's log at level error or above. */
  const logErrors = () =>
    gateway
      .stdout()
      .split('\n')
      .filter((line) => {
        try {
          return ['error', 'fatal'].includes(String((JSON.parse(line) as { level?: string }).level));
        } catch {
          return false;
        }
      })
      .map((line) => line.slice(0, 500));
  const pid = gateway.process.pid!;
  const banksUrl = `${publicUrl}/partner/provider/sbp/banks/`;

  const created = await fetch(`${adminUrl}/admin/v1/partners`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ login: LOGIN, password: PASSWORD, ipAllowlist: ['127.0.0.1'], rewardTypes: ['sbp'] }),
  });
  if (created.status !== 201) throw new Error(`cannot create the partner: ${created.status} ${await created.text()}`);

  // What this process sends itself (logins for the round's token, the refresh chain) counts as load too.
  const own = { ok: 0, failed: 0, statuses: {} as Record<string, number> };
  const countOwn = (status: number | 'socket error') => {
    own.statuses[status] = (own.statuses[status] ?? 0) + 1;
    if (typeof status === 'number' && status >= 200 && status < 300) own.ok++;
    else own.failed++;
  };
  async function post(path: string, body: unknown): Promise<{ access_token: string; refresh_token: string } | undefined> {
    try {
      const response = await fetch(`${publicUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      countOwn(response.status);
      return response.ok ? ((await response.json()) as { access_token: string; refresh_token: string }) : undefined;
    } catch {
      countOwn('socket error');
      return undefined;
    }
  }
  const login = () => post('/api/v1/login/', { login: LOGIN, password: PASSWORD });

  const jwePaths = (count: number, round: number) =>
    writeJwePaths(join(workDir, `paths-${round}.txt`), {
      jwksUrl: `${publicUrl}/.well-known/jwks.json`,
      password: PASSWORD,
      count,
      pathOf: (jwe) => `/partner/provider/sbp/banks/?partnerName=${LOGIN}&partnerPassword=${jwe}&useAuthByCert=Y`,
    });
  const load = (spec: LoadSpec & { rate: number }): Promise<LoadResult> => runLoad(spec);

  const rssMb = () => readRss(pid).now;
  const samples: Array<{ atSec: number; rssMb: number }> = [];
  const startedAt = Date.now();
  const sample = () => samples.push({ atSec: Math.round((Date.now() - startedAt) / 1000), rssMb: rssMb() });
  sample();
  const sampler = setInterval(sample, SAMPLE_MS);

  // The refresh chain: one refresh a second, each spending the last refresh token (a failure starts a new chain).
  let chain = (await login())?.refresh_token;
  let refreshing = false;
  const refresher = setInterval(() => {
    if (refreshing) return;
    refreshing = true;
    (chain ? post('/api/v1/token/refresh/', { refresh_token: chain }) : login())
      .then((session) => (chain = session?.refresh_token))
      .finally(() => (refreshing = false));
  }, 1000 / RATES.refresh);

  const kinds: Record<string, { ok: number; failed: number; statuses: Record<string, number> }> = {};
  const add = (kind: string, result: { ok: number; failed: number; statuses: Record<string, number> }) => {
    const total = (kinds[kind] ??= { ok: 0, failed: 0, statuses: {} });
    total.ok += result.ok;
    total.failed += result.failed;
    for (const [status, count] of Object.entries(result.statuses)) total.statuses[status] = (total.statuses[status] ?? 0) + count;
  };

  const endAt = startedAt + MINUTES * 60_000;
  let round = 0;
  let crashedLoads = 0;
  while (Date.now() < endAt - 2_000) {
    const durationSec = Math.max(1, Math.min(ROUND_SEC, Math.round((endAt - Date.now()) / 1000)));
    const token = (await login())?.access_token;
    const paths = await jwePaths(Math.ceil(RATES.encryptedBanks * durationSec * 1.5) + 20, round++);
    const runs: Array<[string, Promise<LoadResult>]> = [
      ['bearer banks', load({ url: banksUrl, method: 'POST', headers: { authorization: `Bearer ${token ?? 'none'}` }, connections: 4, durationSec, rate: RATES.bearerBanks })],
      ['encrypted-password banks', load({ url: publicUrl, method: 'POST', connections: 4, durationSec, rate: RATES.encryptedBanks, pathsFile: paths })],
      [
        'login',
        load({
          url: `${publicUrl}/api/v1/login/`,
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ login: LOGIN, password: PASSWORD }),
          connections: 2,
          durationSec,
          rate: RATES.login,
        }),
      ],
    ];
    for (const [kind, run] of runs) {
      try {
        add(kind, await run);
      } catch (error) {
        crashedLoads++;
        process.stderr.write(`soak: ${kind}: ${(error as Error).message}\n`);
      }
    }
    rmSync(paths, { force: true });
    process.stderr.write(`soak: ${Math.round((Date.now() - startedAt) / 1000)} s, RSS ${rssMb()} MB\n`);
  }
  clearInterval(refresher);
  while (refreshing) await new Promise((resolve) => setTimeout(resolve, 50));
  // RSS is compared under load: the last sample taken while the load ran is "the end"; the one taken now,
  // with the load stopped, is kept for the record.
  clearInterval(sampler);
  const end = samples.at(-1)!;
  sample();
  const afterLoad = samples.at(-1)!;
  add('own logins and refreshes', own);

  const exitCode = await stopGatewayProcess(gateway);
  await backend.close();

  const served = Object.values(kinds).reduce((sum, kind) => sum + kind.ok + kind.failed, 0);
  const errors = Object.values(kinds).reduce((sum, kind) => sum + kind.failed, 0) + crashedLoads;
  const minute1 = samples.find((entry) => entry.atSec >= 60) ?? end;
  const growthPct = Math.round(((end.rssMb - minute1.rssMb) / minute1.rssMb) * 1000) / 10;
  const targets = [
    { target: 'errors (non-2xx or socket errors) = 0', met: errors === 0, value: String(errors) },
    { target: 'RSS growth from minute 1 to the end < 10%', met: growthPct < 10, value: `${growthPct}%` },
    { target: 'no error lines in the gateway log, clean exit', met: logErrors().length === 0 && exitCode === 0, value: `${logErrors().length} lines, exit ${exitCode}` },
  ];

  console.log(`\nsoak: ${MINUTES} min, production gateway on PostgreSQL, rates per second ${JSON.stringify(RATES)}`);
  for (const [kind, total] of Object.entries(kinds)) console.log(`  ${kind.padEnd(26)} ${String(total.ok + total.failed).padStart(8)} requests, ${total.failed} failed ${JSON.stringify(total.statuses)}`);
  console.log(`requests served: ${served}`);
  console.log(`errors:          ${errors}`);
  console.log(`RSS at minute 1: ${minute1.rssMb} MB (${minute1.atSec} s)`);
  console.log(`RSS at the end:  ${end.rssMb} MB (${end.atSec} s; ${afterLoad.rssMb} MB once the load stopped)`);
  console.log(`growth:          ${growthPct}%`);
  for (const line of logErrors().slice(0, 5)) console.log(`gateway log: ${line}`);
  for (const target of targets) console.log(`${target.met ? 'met    ' : 'NOT MET'} ${target.target}: ${target.value}`);
  writeFileSync(
    projectFile('bench/soak-results.json'),
    `${JSON.stringify({ at: new Date().toISOString(), minutes: MINUTES, node: process.version, database: 'postgresql', rates: RATES, served, errors, kinds, rssSamples: samples, rssMinute1Mb: minute1.rssMb, rssEndMb: end.rssMb, rssAfterLoadMb: afterLoad.rssMb, growthPct, gatewayLogErrors: logErrors().length, targets }, null, 2)}\n`,
  );
  process.exit(targets.every((target) => target.met) ? 0 : 1);
}
