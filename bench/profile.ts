/**
 * `node --import tsx bench/profile.ts [path/to/dist/src/main.js]`: a CPU profile of the gateway serving
 * BENCH_SCENARIO (`bearer`, the default: bearer banks calls; `encrypted`: banks calls with an encrypted password; `login`: logins, 16 connections; `dpop`: banks calls with a DPoP-bound token and a
 * fresh proof each; `tokens`: private_key_jwt client-credentials tokens) for BENCH_DURATION seconds (default
 * 10; 32 connections, 16 for tokens) on BENCH_BACKEND (pglite or
 * postgres, default postgres), and a summary of it: self time by function and by area (the socket write,
 * Fastify, the audit trail, logging, metrics, the database, garbage collection, idle). Used for the
 * before/after profiles in docs/performance.md; the .cpuprofile stays in the printed directory for a viewer.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DatabaseKind } from '../src/db/database.js';
import { startGatewayProcess, stopGatewayProcess } from '../test/support/gateway-process.js';
import { openBenchBackend } from './support/bench-backend.js';
import { bearerPartner } from './support/bearer-partner.js';
import { runLoad } from './support/run-load.js';
import type { LoadSpec } from './load.js';
import { token as oauthToken } from './oauth-scenarios.js';
import { registerKeyPartner } from './support/register-key-partner.js';
import { benchProofs, writeDpopBanksRequests, writeTokenRequests } from './support/oauth-requests.js';
import { writeJwePaths } from './support/jwe-paths.js';

const DURATION = Number(process.env.BENCH_DURATION ?? 10);
// Warmed up first, as in the bench (BENCH_WARMUP seconds, default 3): the window below is the warm path.
const WARMUP = Number(process.env.BENCH_WARMUP ?? 3);
const KIND = (process.env.BENCH_BACKEND ?? 'postgres') as DatabaseKind;
const main = process.argv[2];
const workDir = mkdtempSync(join(tmpdir(), 'profile-'));
const ADMIN_TOKEN = randomBytes(24).toString('hex');
const PASSWORD = 'profile partner password';

const backend = await openBenchBackend(KIND, { workDir, databaseUrl: process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test' });
const gateway = await startGatewayProcess(
  { ...backend.env, MASTER_KEY: randomBytes(32).toString('hex'), ADMIN_TOKEN, LOG_LEVEL: 'warn' },
  { build: main ?? true, echo: false, inheritEnv: false, nodeArgs: ['--cpu-prof', `--cpu-prof-dir=${workDir}`] },
);
const token = await bearerPartner(gateway, ADMIN_TOKEN, 'profile', PASSWORD);
const SCENARIO = process.env.BENCH_SCENARIO ?? 'bearer';
const phase = await scenarioPhases(SCENARIO);
// Warmed up first, as in the bench: the window below is the warm path. Single-use requests get their own set per phase.
if (WARMUP > 0) await runLoad({ ...(await phase('warm-up', WARMUP)), durationSec: WARMUP });
const spec = await phase('measured', DURATION);

/**
 * The load of the scenario, per phase; `dpop` and `tokens` register `bench-key` once and write the single-use
 * requests (assertions, proofs) each phase needs, at well above the rate expected.
 */
async function scenarioPhases(scenario: string): Promise<(name: string, seconds: number) => Promise<Omit<LoadSpec, 'durationSec'>>> {
  const banksUrl = `${gateway.base}/partner/provider/sbp/banks/`;
  if (scenario === 'bearer') return async () => ({ url: banksUrl, method: 'POST', headers: { authorization: `Bearer ${token}` }, connections: 32 });
  if (scenario === 'login') {
    const body = JSON.stringify({ login: 'profile', password: PASSWORD });
    return async () => ({ url: `${gateway.base}/api/v1/login/`, method: 'POST', headers: { 'content-type': 'application/json' }, body, connections: 16 });
  }
  if (scenario === 'encrypted') {
    return async (name, seconds) => ({
      url: gateway.base,
      method: 'POST',
      connections: 32,
      pathsFile: await writeJwePaths(join(workDir, `jwes-${name}.txt`), {
        jwksUrl: `${gateway.base}/.well-known/jwks.json`,
        password: PASSWORD,
        count: 4_000 * seconds,
        iatOffsetSec: 20,
        pathOf: (jwe) => `/partner/provider/sbp/banks/?partnerName=profile&partnerPassword=${jwe}&useAuthByCert=Y`,
      }),
      singleUse: true,
    });
  }
  if (scenario !== 'dpop' && scenario !== 'tokens') throw new Error(`BENCH_SCENARIO: bearer, encrypted, login, dpop or tokens, not ${scenario}`);
  const key = await registerKeyPartner(gateway, ADMIN_TOKEN);
  const tokenUrl = `${gateway.base}/api/v1/oauth/token`;
  if (scenario === 'tokens') {
    return async (name, seconds) => ({
      url: tokenUrl,
      method: 'POST',
      connections: 16,
      requestsFile: await writeTokenRequests(join(workDir, `tokens-${name}.jsonl`), { tokenUrl, audience: gateway.base, login: 'bench-key', key, count: 3_000 * seconds }),
      singleUse: true,
    });
  }
  const proofs = benchProofs(20);
  const accessToken = await oauthToken(tokenUrl, key, proofs);
  return async (name, seconds) => ({
    url: banksUrl,
    method: 'POST',
    connections: 32,
    ...(await writeDpopBanksRequests(join(workDir, `dpop-banks-${name}.jsonl`), { banksUrl, accessToken, proofs, count: 8_000 * seconds })),
  });
}
const loadStart = Date.now();
const result = await runLoad({ ...spec, durationSec: DURATION });
const loadEnd = Date.now();
await stopGatewayProcess(gateway);
const exited = Date.now();
await backend.close();

interface Node {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}
const file = readdirSync(workDir).find((name) => name.endsWith('.cpuprofile'))!;
const profile = JSON.parse(readFileSync(join(workDir, file), 'utf8')) as { nodes: Node[]; samples: number[]; timeDeltas: number[]; endTime: number };
// Only the samples taken while the load ran: the profile ends when the process exits, which is mapped to the
// wall clock here (start-up, a new data directory's initdb among it, and shutdown are left out).
const windowStart = profile.endTime - (exited - loadStart) * 1000;
const windowEnd = profile.endTime - (exited - loadEnd) * 1000;
const self = new Map<number, number>();
let sampledAt = profile.endTime - profile.timeDeltas.reduce((sum, delta) => sum + delta, 0);
profile.samples.forEach((id, index) => {
  sampledAt += profile.timeDeltas[index] ?? 0;
  if (sampledAt >= windowStart && sampledAt <= windowEnd) self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[index] ?? 0));
});
const total = [...self.values()].reduce((sum, value) => sum + value, 0);
const byFunction = new Map<string, number>();
const byArea = new Map<string, number>();
const area = (node: Node) => {
  const { functionName: name, url } = node.callFrame;
  if (name === '(idle)') return 'idle';
  if (name === '(garbage collector)') return 'garbage collection';
  if (name === '(program)') return 'program (native, unattributed)';
  if (/writev|writeGeneric|writeBuffer/.test(name)) return 'socket write';
  if (/audit/.test(url)) return 'audit trail';
  if (/pino|request-log/.test(url)) return 'logging';
  if (/prom-client|metrics/.test(url)) return 'metrics';
  if (/pglite|kysely|\/pg\/|pg-protocol|^wasm:/.test(url)) return 'database (client, and PGlite itself on the embedded default)';
  if (/jose/.test(url)) return 'jose (token check)';
  if (/fastify|find-my-way|light-my-request|avvio/.test(url)) return 'fastify';
  if (/node:|^internal|^$/.test(url)) return 'node internals (http, streams, timers)';
  if (/\/src\//.test(url)) return 'gateway code';
  return 'other';
};
// Inclusive time of the gateway's own functions (a sample counts once for each distinct one on its stack): where a path's time goes.
const parentOf = new Map<number, Node>();
for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node);
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const inclusive = new Map<string, number>();
for (const [id, time] of self) {
  const seen = new Set<string>();
  for (let node = byId.get(id); node; node = parentOf.get(node.id)) {
    if (!/\/(src|dist\/src)\//.test(node.callFrame.url) || /main\.js|server\.js|app\.js/.test(node.callFrame.url)) continue;
    const key = `${node.callFrame.functionName || '(anonymous)'} ${node.callFrame.url.replace(/^file:\/\/.*?\/(dist|src)\//, '$1/')}:${node.callFrame.lineNumber + 1}`;
    if (seen.has(key)) continue;
    seen.add(key);
    inclusive.set(key, (inclusive.get(key) ?? 0) + time);
  }
}
for (const node of profile.nodes) {
  const time = self.get(node.id) ?? 0;
  if (time === 0) continue;
  const key = `${node.callFrame.functionName || '(anonymous)'} ${node.callFrame.url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*?\/(dist|src)\//, '$1/')}:${node.callFrame.lineNumber + 1}`;
  byFunction.set(key, (byFunction.get(key) ?? 0) + time);
  byArea.set(area(node), (byArea.get(area(node)) ?? 0) + time);
}
const pct = (value: number) => `${((value / total) * 100).toFixed(1)}%`.padStart(6);
console.log(`${KIND}, ${SCENARIO}, ${main ?? 'dist/src/main.js'}: ${result.rps} req/s, p99 ${result.p99} ms; profile ${workDir}/${file}`);
console.log(`self time by area, while the load ran (${Math.round((windowEnd - windowStart) / 1e6)} s of samples):`);
for (const [name, time] of [...byArea].sort((a, b) => b[1] - a[1])) console.log(`  ${pct(time)} ${name}`);
console.log('top functions by self time:');
for (const [name, time] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, 15)) console.log(`  ${pct(time)} ${name}`);
console.log("the gateway's functions by inclusive time (with what they call):");
for (const [name, time] of [...inclusive].sort((a, b) => b[1] - a[1]).slice(0, 20)) console.log(`  ${pct(time)} ${name}`);
