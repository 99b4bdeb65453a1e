/**
 * `node --import tsx bench/rss-probe.ts`: what the gateway's peak RSS on PostgreSQL is made of. Starts the
 * production build once per variant of its environment (BENCH_RSS_VARIANTS, JSON `{label: {VAR: value}}`;
 * by default glibc's arena count and libuv's pool size, which decide how many copies of argon2's 19 MiB
 * working memory the allocator keeps, and V8's young generation, which grows with the allocation rate), runs
 * scenario 4 of the bench (a login storm of 64 connections with 8 connections of bearer banks calls beside it,
 * BENCH_DURATION seconds) and prints the first-start and storm peak RSS (VmHWM) and the logins and bearer calls
 * per second. See docs/performance.md.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { startGatewayProcess, stopGatewayProcess } from '../test/support/gateway-process.js';
import { openBenchBackend } from './support/bench-backend.js';
import { resetPeakRss, rssMb, runLoad } from './support/run-load.js';

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
const variants = JSON.parse(
  process.env.BENCH_RSS_VARIANTS ?? '{"default": {}, "MALLOC_ARENA_MAX=2": {"MALLOC_ARENA_MAX": "2"}, "UV_THREADPOOL_SIZE=2": {"UV_THREADPOOL_SIZE": "2"}, "--max-semi-space-size=4": {"NODE_OPTIONS": "--max-semi-space-size=4"}}',
) as Record<string, Record<string, string>>;
const workDir = mkdtempSync(join(tmpdir(), 'rss-'));
const databaseUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const ADMIN_TOKEN = randomBytes(24).toString('hex');
const PASSWORD = 'rss probe password';

for (const [label, env] of Object.entries(variants)) {
  const backend = await openBenchBackend('postgres', { workDir, databaseUrl, suffix: label });
  const gateway = await startGatewayProcess({ ...backend.env, ...env, MASTER_KEY: randomBytes(32).toString('hex'), ADMIN_TOKEN, LOG_LEVEL: 'warn' }, { build: true, echo: false, inheritEnv: false });
  const pid = gateway.process.pid!;
  const firstStart = rssMb(pid).peak;
  await fetch(`${gateway.admin}/admin/v1/partners`, {
    method: 'POST',
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify({ login: 'rss', password: PASSWORD, ipAllowlist: ['127.0.0.1'], rewardTypes: ['sbp'] }),
  });
  const loginSpec = { url: `${gateway.base}/api/v1/login/`, method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ login: 'rss', password: PASSWORD }) } as const;
  const token = ((await (await fetch(loginSpec.url, loginSpec)).json()) as { access_token: string }).access_token;
  resetPeakRss(pid);
  const [storm, bearer] = await Promise.all([
    runLoad({ ...loginSpec, connections: 64, durationSec: DURATION }),
    runLoad({ url: `${gateway.base}/partner/provider/sbp/banks/`, method: 'POST', headers: { authorization: `Bearer ${token}` }, connections: 8, durationSec: DURATION }),
  ]);
  const peak = rssMb(pid);
  console.log(
    `${label}: first start ${firstStart} MB, storm peak ${peak.peak} MB (now ${peak.now} MB), ${storm.rps} logins/s and ${bearer.rps} bearer calls/s, load average ${loadavg()[0]!.toFixed(1)}`,
  );
  await stopGatewayProcess(gateway);
  await backend.close();
}
process.exit(0);
