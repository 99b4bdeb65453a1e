import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { texts } from '../../src/errors.js';
import { stopGatewayProcess, type GatewayProcess } from '../support/gateway-process.js';
import { createPostgresCluster, postgresClusterUnavailable, type PostgresCluster } from '../support/postgres-cluster.js';
import { describeCall, firstSuccessAfter, runOutageScenario, type Call, type Kind, type Outcome } from './outage-scenario.js';

/*
 * One gateway process (the real entry point) on a PostgreSQL server of the test's own, under a steady load
 * of concurrent requests, while that server is stopped (fast shutdown: every session is ended) and started
 * again on the same port and data. The scenario (outage-scenario.ts) runs once in `before`; each test checks
 * one rule on what every request got.
 */

/** The pool's connectionTimeoutMillis (src/db/database.ts, 5 s) doubled, for a loaded 2-core CI machine. */
const SETTLE_LIMIT_MS = 10_000;
const RECOVERY_LIMIT_MS = 5_000;
const SEED_500 = { description_status: texts.internal };

/** The audit action each kind of request is recorded under (readyz is not audited). */
const AUDIT_ACTION: Record<Exclude<Kind, 'readyz'>, string> = {
  login: 'login',
  'bearer banks': 'banks',
  'encrypted banks': 'banks',
  'partner create': 'partner.create',
};
const DATABASE_BOUND: Kind[] = ['login', 'encrypted banks', 'partner create'];

const unavailable = postgresClusterUnavailable();

describe('the gateway through a PostgreSQL outage under load', { skip: unavailable ?? false }, () => {
  let cluster: PostgresCluster | undefined;
  let gateway: GatewayProcess | undefined;
  let outcome: Outcome;

  before(async () => {
    cluster = await createPostgresCluster();
    outcome = await runOutageScenario(cluster, (started) => {
      gateway = started;
    });
  }, { timeout: 120_000 });

  after(async () => {
    // The scenario stops the gateway itself; one still running here is left over from a failure.
    if (gateway) await stopGatewayProcess(gateway, 'SIGKILL');
    await cluster?.destroy();
  });

  const during = () => outcome.calls.filter((call) => call.start >= outcome.timeline.down && call.end <= outcome.timeline.restarting);
  const recoveredAt = () => firstSuccessAfter(outcome, 'login') ?? Infinity;

  it("answers database-bound requests with the seed's 500 within 10 s while PostgreSQL is down", (t) => {
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
      assert.deepEqual(JSON.parse(call.body), { status: 'not_ready', dependencies: { database: { state: 'down' } } }, describeCall(call));
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

  it('settles every request within 10 s with a seed answer, in every phase of the outage', (t) => {
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

const LEVELS: Record<string, number> = { trace: 10, debug: 20, info: 30, warn: 40, error: 50, fatal: 60 };

function parseLogLine(line: string): { level: number; msg: string } | undefined {
  try {
    const entry = JSON.parse(line) as { level?: unknown; msg?: unknown };
    // The gateway logs level names (`"level":"warn"`); pino's numbers order them.
    const level = typeof entry.level === 'string' ? LEVELS[entry.level] : undefined;
    return level !== undefined ? { level, msg: String(entry.msg) } : undefined;
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

function percentile(sortedValues: number[], fraction: number): number {
  return sortedValues[Math.min(sortedValues.length - 1, Math.floor(sortedValues.length * fraction))] ?? 0;
}

function sorted(map: Map<string, number>): Array<[string, number]> {
  return [...map].sort(([a], [b]) => a.localeCompare(b));
}
