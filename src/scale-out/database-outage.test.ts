import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomInt } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { texts } from '../errors.js';
import { projectFile } from '../project-root.js';
import { encryptPassword } from '../testing/encrypt-password.js';
import { freePort } from '../testing/free-port.js';
import { createPostgresCluster, postgresClusterUnavailable, type PostgresCluster } from '../testing/postgres-cluster.js';

/*
 * One gateway process (the real entry point) on a PostgreSQL server of the test's own, under a steady load
 * of concurrent requests, while that server is stopped (fast shutdown: every session is ended) and started
 * again on the same port and data. The scenario runs once in `before`; each test checks one rule on what
 * every request got.
 */

const ADMIN_TOKEN = randomBytes(24).toString('hex');
const MASTER_KEY = randomBytes(32).toString('hex');
/** The pool's connectionTimeoutMillis (src/db/database.ts) plus a second of margin for a loaded machine. */
const SETTLE_LIMIT_MS = 6_000;
const RECOVERY_LIMIT_MS = 5_000;
const UP_BEFORE_MS = 1_500;
const OUTAGE_MS = 3_000;
const UP_AFTER_MS = 1_000;
const SEED_500 = { description_status: texts.internal };

type Kind = 'login' | 'bearer banks' | 'encrypted banks' | 'partner create' | 'readyz';
/** The audit action each kind of request is recorded under (readyz is not audited). */
const AUDIT_ACTION: Record<Exclude<Kind, 'readyz'>, string> = {
  login: 'login',
  'bearer banks': 'banks',
  'encrypted banks': 'banks',
  'partner create': 'partner.create',
};
const DATABASE_BOUND: Kind[] = ['login', 'encrypted banks', 'partner create'];

interface Call {
  kind: Kind;
  start: number;
  end: number;
  status: number;
  contentType: string;
  body: string;
  error?: string;
}

interface Timeline {
  /** pg_ctl stop was called. */
  stopping: number;
  /** pg_ctl stop returned: the server is gone. */
  down: number;
  /** pg_ctl start was called. */
  restarting: number;
  /** The first connection of the test's own to the restarted server got an answer. */
  accepting: number;
}

interface Outcome {
  calls: Call[];
  timeline: Timeline;
  bankList: string;
  listenersBefore: number;
  listenersAfter: { count: number; afterMs: number };
  exitedDuringLoad: number | null;
  exit: { code: number | null; signal: NodeJS.Signals | null };
  stdout: string;
  stderr: string;
  audited: Map<string, number>;
}

const unavailable = postgresClusterUnavailable();

describe('the gateway through a PostgreSQL outage under load', { skip: unavailable ?? false }, () => {
  let cluster: PostgresCluster | undefined;
  let gateway: ChildProcess | undefined;
  let outcome: Outcome;

  before(async () => {
    cluster = await createPostgresCluster();
    outcome = await runScenario(cluster, (child) => {
      gateway = child;
    });
  }, { timeout: 120_000 });

  after(async () => {
    if (gateway && gateway.exitCode === null && gateway.signalCode === null) {
      await new Promise((resolve) => {
        gateway?.once('exit', resolve);
        gateway?.kill('SIGKILL');
      });
    }
    await cluster?.destroy();
  });

  const during = () => outcome.calls.filter((call) => call.start >= outcome.timeline.down && call.end <= outcome.timeline.restarting);
  const recoveredAt = () => firstSuccessAfter(outcome, 'login') ?? Infinity;

  it("answers database-bound requests with the seed's 500 within 6 s while PostgreSQL is down", (t) => {
    const calls = during().filter((call) => DATABASE_BOUND.includes(call.kind));
    for (const kind of DATABASE_BOUND) assert.ok(calls.some((call) => call.kind === kind), `no ${kind} request during the outage`);
    for (const call of calls) {
      assert.ok(isSeed500(call), `${call.kind} during the outage: ${describeCall(call)}`);
      assert.ok(call.end - call.start <= SETTLE_LIMIT_MS, `${call.kind} took ${call.end - call.start} ms: ${describeCall(call)}`);
    }
    const durations = calls.map((call) => call.end - call.start).sort((a, b) => a - b);
    const first500 = Math.min(...outcome.calls.filter(isSeed500).map((call) => call.end));
    t.diagnostic(
      `outage ${outcome.timeline.restarting - outcome.timeline.down} ms; database-bound requests during it: ${calls.length}, all 500; ` +
        `answered in median ${percentile(durations, 0.5)} ms, p99 ${percentile(durations, 0.99)} ms, max ${durations.at(-1)} ms; ` +
        `first 500 ${first500 - outcome.timeline.stopping} ms after pg_ctl stop was called`,
    );
  });

  it('keeps answering bearer banks calls of recently seen partners with the bank list from memory while PostgreSQL is down', (t) => {
    const calls = during().filter((call) => call.kind === 'bearer banks');
    assert.ok(calls.length > 0, 'no bearer banks request during the outage');
    for (const call of calls) {
      assert.equal(call.status, 200, describeCall(call));
      assert.equal(call.body, outcome.bankList);
    }
    t.diagnostic(`bearer banks calls during the outage: ${calls.length}, all 200 with the bank list`);
  });

  it('reports 503 on /readyz while PostgreSQL is down, and 200 before and after', (t) => {
    const { timeline } = outcome;
    const readyz = outcome.calls.filter((call) => call.kind === 'readyz');
    const before = readyz.filter((call) => call.end < timeline.stopping);
    const down = readyz.filter((call) => call.start >= timeline.down && call.end <= timeline.restarting);
    const afterRecovery = readyz.filter((call) => call.start >= (firstSuccessAfter(outcome, 'readyz') ?? Infinity));
    for (const [phase, calls] of [['before', before], ['during', down], ['after', afterRecovery]] as const) {
      assert.ok(calls.length > 0, `no readyz request ${phase} the outage`);
    }
    for (const call of before) assert.equal(call.status, 200, `before: ${describeCall(call)}`);
    for (const call of down) {
      assert.equal(call.status, 503, `during: ${describeCall(call)}`);
      assert.match(call.contentType, /^application\/json/);
      assert.deepEqual(Object.keys(JSON.parse(call.body) as object), ['description_status']);
    }
    for (const call of afterRecovery) assert.equal(call.status, 200, `after: ${describeCall(call)}`);
    t.diagnostic(`readyz: ${before.length} × 200 before, ${down.length} × 503 during, ${afterRecovery.length} × 200 after`);
  });

  it('recovers within 5 s of PostgreSQL accepting connections again, without a restart', (t) => {
    assert.equal(outcome.exitedDuringLoad, null, 'the gateway process exited during the load');
    const login = firstSuccessAfter(outcome, 'login');
    const readyz = firstSuccessAfter(outcome, 'readyz');
    assert.ok(login !== undefined, 'no login succeeded after PostgreSQL came back');
    assert.ok(readyz !== undefined, 'readyz never said 200 after PostgreSQL came back');
    const loginMs = Math.max(0, login - outcome.timeline.accepting);
    const readyzMs = Math.max(0, readyz - outcome.timeline.accepting);
    t.diagnostic(
      `PostgreSQL accepted connections ${outcome.timeline.accepting - outcome.timeline.restarting} ms after pg_ctl start was called; ` +
        `from then, first login 200 after ${loginMs} ms, first readyz 200 after ${readyzMs} ms`,
    );
    assert.ok(loginMs < RECOVERY_LIMIT_MS, `first login 200 ${loginMs} ms after PostgreSQL accepted connections`);
    assert.ok(readyzMs < RECOVERY_LIMIT_MS, `first readyz 200 ${readyzMs} ms after PostgreSQL accepted connections`);
  });

  it('answers every request again once recovered', () => {
    const calls = outcome.calls.filter((call) => call.start >= recoveredAt() && call.kind !== 'readyz');
    assert.ok(calls.length > 0, 'no request after the recovery');
    for (const call of calls) assert.ok(call.status === 200 || call.status === 201, `${call.kind} after the recovery: ${describeCall(call)}`);
  });

  it('settles every request within 6 s with a seed answer, in every phase of the outage', (t) => {
    for (const call of outcome.calls) {
      assert.equal(call.error, undefined, `${call.kind}: ${describeCall(call)}`);
      assert.ok(call.end - call.start <= SETTLE_LIMIT_MS, `${call.kind} took ${call.end - call.start} ms: ${describeCall(call)}`);
      if (call.kind === 'bearer banks') assert.equal(call.status, 200, describeCall(call));
      else if (call.kind === 'readyz') assert.ok(call.status === 200 || call.status === 503, describeCall(call));
      else assert.ok(call.status === 200 || call.status === 201 || isSeed500(call), `${call.kind}: ${describeCall(call)}`);
    }
    const counts = new Map<string, number>();
    for (const call of outcome.calls) counts.set(`${call.kind} ${call.status}`, (counts.get(`${call.kind} ${call.status}`) ?? 0) + 1);
    t.diagnostic(`all requests: ${[...counts].sort().map(([key, count]) => `${key}: ${count}`).join(', ')}`);
  });

  it('stays up through the outage with no unhandled error', (t) => {
    const output = `${outcome.stderr}\n${outcome.stdout}`;
    assert.equal(outcome.exitedDuringLoad, null, `the gateway exited during the load:\n${output}`);
    assert.deepEqual(outcome.exit, { code: 0, signal: null }, `the gateway did not shut down cleanly:\n${output}`);
    // pino's JSON lines are the gateway's own reports; anything else is Node's (a crash, a warning).
    const logged = new Map<string, number>();
    const raw: string[] = [];
    for (const line of output.split('\n').filter((text) => text.trim() !== '')) {
      const entry = parseLogLine(line);
      if (!entry) raw.push(line);
      else if (entry.level >= 60 || /uncaught|unhandled/i.test(entry.msg)) raw.push(line);
      else logged.set(entry.msg, (logged.get(entry.msg) ?? 0) + 1);
    }
    assert.deepEqual(raw, []);
    t.diagnostic(`gateway log lines: ${[...logged].map(([msg, count]) => `${count} × "${msg}"`).join(', ')}`);
  });

  it("listens for the other instances' changes again once PostgreSQL is back", (t) => {
    assert.equal(outcome.listenersBefore, 1, 'the change feed was not listening before the outage');
    assert.equal(outcome.listenersAfter.count, 1, 'the change feed is not listening (exactly once) after the outage');
    t.diagnostic(`change feed listening again ${outcome.listenersAfter.afterMs} ms after PostgreSQL accepted connections`);
  });

  it('writes the audit entry of every audited call, those answered during the outage included, once PostgreSQL is back', () => {
    const answered = new Map<string, number>();
    for (const call of outcome.calls) {
      if (call.kind === 'readyz') continue;
      const key = `${AUDIT_ACTION[call.kind]} ${call.status}`;
      answered.set(key, (answered.get(key) ?? 0) + 1);
    }
    assert.deepEqual(sorted(outcome.audited), sorted(answered));
  });
});

async function runScenario(cluster: PostgresCluster, onSpawn: (child: ChildProcess) => void): Promise<Outcome> {
  const [port, adminPort] = [await freePort(), await freePort()];
  const child = spawn(process.execPath, ['--import', 'tsx', projectFile('src/main.ts')], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      DATABASE_URL: cluster.url,
      ADMIN_TOKEN,
      MASTER_KEY,
      HOST: '127.0.0.1',
      PORT: String(port),
      ADMIN_PORT: String(adminPort),
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  onSpawn(child);
  let stdout = '';
  let stderr = '';
  child.stdout?.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  const base = `http://127.0.0.1:${port}`;
  const admin = `http://127.0.0.1:${adminPort}`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`the gateway exited on start:\n${stderr}\n${stdout}`);
    if (await fetch(`${base}/readyz`).then((r) => r.ok, () => false)) break;
    if (i > 600) throw new Error(`the gateway did not become ready:\n${stderr}\n${stdout}`);
    await delay(100);
  }

  const calls: Call[] = [];
  const call = async (kind: Kind, url: string, init: RequestInit = {}): Promise<Call> => {
    const start = Date.now();
    let record: Call;
    try {
      const response = await fetch(url, { ...init, signal: AbortSignal.timeout(30_000) });
      const body = await response.text();
      record = { kind, start, end: Date.now(), status: response.status, contentType: response.headers.get('content-type') ?? '', body };
    } catch (error) {
      record = { kind, start, end: Date.now(), status: 0, contentType: '', body: '', error: String(error) };
    }
    calls.push(record);
    return record;
  };
  const partner = { login: `outage-${randomInt(1e9)}`, password: 'a partner password for the outage' };
  let created = 0;
  const createPartner = (login: string) =>
    call('partner create', `${admin}/admin/v1/partners`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ login, password: partner.password, ipAllowlist: ['127.0.0.1'], rewardTypes: ['sbp'] }),
    });
  const login = () => call('login', `${base}/api/v1/login/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(partner) });
  const banksPath = `${base}/partner/provider/sbp/banks/`;
  const bearerBanks = (token: string) => call('bearer banks', banksPath, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
  const jwks = (await (await fetch(`${base}/.well-known/jwks.json`)).json()) as { keys: never[] };
  const encryptedBanks = async () => {
    const jwe = await encryptPassword(partner.password, jwks);
    return call('encrypted banks', `${banksPath}?partnerName=${partner.login}&partnerPassword=${jwe}&useAuthByCert=Y`, { method: 'POST' });
  };

  assert.equal((await createPartner(partner.login)).status, 201);
  const session = await login();
  assert.equal(session.status, 200, describeCall(session));
  const token = (JSON.parse(session.body) as { access_token: string }).access_token;
  const warm = await bearerBanks(token);
  assert.equal(warm.status, 200, describeCall(warm));
  const bankList = warm.body;
  assert.equal((await encryptedBanks()).status, 200);
  const listenersBefore = await poll(5_000, async () => {
    const count = await listeners(cluster);
    return count === 1 ? count : undefined;
  }).catch(() => listeners(cluster));

  let stopped = false;
  const loop = async (work: () => Promise<unknown>, pauseMs: number) => {
    while (!stopped) {
      await work();
      await delay(pauseMs);
    }
  };
  // Ten requests in flight at most: the bearer path most partners take, and each kind that needs the database.
  const workers = [
    ...Array.from({ length: 5 }, () => loop(() => bearerBanks(token), 5)),
    loop(login, 20),
    loop(login, 20),
    loop(encryptedBanks, 20),
    loop(() => createPartner(`${partner.login}-${++created}`), 50),
    loop(() => call('readyz', `${base}/readyz`), 50),
  ];

  let exitedDuringLoad: number | null = null;
  const onExit = (code: number | null) => {
    exitedDuringLoad = code ?? -1;
  };
  child.once('exit', onExit);
  let timeline: Timeline;
  let listenersAfter: { count: number; afterMs: number };
  try {
    await delay(UP_BEFORE_MS);
    const stopping = Date.now();
    await cluster.stop('fast');
    const down = Date.now();
    await delay(OUTAGE_MS);
    const restarting = Date.now();
    const accepted = cluster.accepting();
    await cluster.start();
    const accepting = await accepted;
    timeline = { stopping, down, restarting, accepting };
    await poll(15_000, async () => {
      if (child.exitCode !== null) throw new Error('the gateway exited');
      const sample: Outcome = { calls, timeline } as Outcome;
      return firstSuccessAfter(sample, 'login') !== undefined && firstSuccessAfter(sample, 'readyz') !== undefined ? true : undefined;
    }).catch(() => {});
    await delay(UP_AFTER_MS);
    listenersAfter = await poll(10_000, async () => {
      const count = await listeners(cluster);
      return count === 1 ? { count, afterMs: Date.now() - accepting } : undefined;
    }).catch(async () => ({ count: await listeners(cluster), afterMs: Date.now() - accepting }));
  } finally {
    stopped = true;
    await Promise.all(workers);
    child.removeListener('exit', onExit);
  }

  if (child.exitCode === null) child.kill('SIGTERM');
  const exit = await exited;
  const client = new pg.Client({ connectionString: cluster.url });
  await client.connect();
  const rows = (await client.query<{ action: string; status: number; count: string }>('select action, status, count(*) from audit_log group by action, status')).rows;
  await client.end();
  const audited = new Map(rows.map((row) => [`${row.action} ${row.status}`, Number(row.count)]));
  return { calls, timeline, bankList, listenersBefore, listenersAfter, exitedDuringLoad, exit, stdout, stderr, audited };
}

/** How many sessions of the restarted server are LISTENing on the gateway's change channel. */
async function listeners(cluster: PostgresCluster): Promise<number> {
  const client = new pg.Client({ connectionString: cluster.url });
  await client.connect();
  try {
    const { rows } = await client.query<{ count: string }>("select count(*) from pg_stat_activity where query like 'listen %'");
    return Number(rows[0]?.count ?? 0);
  } finally {
    await client.end();
  }
}

/** When the first request of `kind` answered 200 after the restarted server accepted connections. */
function firstSuccessAfter(outcome: Pick<Outcome, 'calls' | 'timeline'>, kind: Kind): number | undefined {
  const ends = outcome.calls.filter((call) => call.kind === kind && call.status === 200 && call.end >= outcome.timeline.accepting).map((call) => call.end);
  return ends.length > 0 ? Math.min(...ends) : undefined;
}

function parseLogLine(line: string): { level: number; msg: string } | undefined {
  try {
    const entry = JSON.parse(line) as { level?: unknown; msg?: unknown };
    return typeof entry.level === 'number' ? { level: entry.level, msg: String(entry.msg) } : undefined;
  } catch {
    return undefined;
  }
}

function isSeed500(call: Call): boolean {
  if (call.status !== 500 || !/^application\/json/.test(call.contentType)) return false;
  try {
    assert.deepEqual(JSON.parse(call.body), SEED_500);
    return true;
  } catch {
    return false;
  }
}

function describeCall(call: Call): string {
  return `${call.status} after ${call.end - call.start} ms${call.error ? ` (${call.error})` : ''}: ${call.body.slice(0, 300)}`;
}

function percentile(sortedValues: number[], fraction: number): number {
  return sortedValues[Math.min(sortedValues.length - 1, Math.floor(sortedValues.length * fraction))] ?? 0;
}

function sorted(map: Map<string, number>): Array<[string, number]> {
  return [...map].sort(([a], [b]) => a.localeCompare(b));
}

async function poll<T>(limitMs: number, check: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + limitMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`not within ${limitMs} ms`);
    await delay(25);
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
