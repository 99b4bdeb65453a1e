import assert from 'node:assert/strict';
import { randomBytes, randomInt } from 'node:crypto';
import pg from 'pg';
import { encryptPassword } from '../support/encrypt-password.js';
import { startGatewayProcess, stopGatewayProcess, type GatewayProcess } from '../support/gateway-process.js';
import type { PostgresCluster } from '../support/postgres-cluster.js';
import { waitFor } from '../support/wait-for.js';

/*
 * The load driver of database-outage.test.ts: one gateway process (the real entry point) on a PostgreSQL
 * server of the test's own, under a steady load of concurrent requests, while that server is stopped (fast
 * shutdown: every session is ended) and started again on the same port and data. It records what every
 * request got and when; the rules on that are the test's.
 */

const ADMIN_TOKEN = randomBytes(24).toString('hex');
const MASTER_KEY = randomBytes(32).toString('hex');
const UP_BEFORE_MS = 1_500;
const OUTAGE_MS = 3_000;
const UP_AFTER_MS = 1_000;

export type Kind = 'login' | 'bearer banks' | 'encrypted banks' | 'partner create' | 'readyz';

export interface Call {
  kind: Kind;
  start: number;
  end: number;
  status: number;
  contentType: string;
  body: string;
  error?: string;
}

export interface Timeline {
  /** pg_ctl stop was called. */
  stopping: number;
  /** pg_ctl stop returned: the server is gone. */
  down: number;
  /** pg_ctl start was called. */
  restarting: number;
  /** The first connection of the test's own to the restarted server got an answer. */
  accepting: number;
}

export interface Outcome {
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

/**
 * Runs the scenario on `cluster` and stops the gateway with SIGTERM at the end, so that its audit queue is
 * drained before the trail is read. `onStart` gets the gateway as soon as it is ready: whatever happens next,
 * the caller can still kill it.
 */
export async function runOutageScenario(cluster: PostgresCluster, onStart: (gateway: GatewayProcess) => void): Promise<Outcome> {
  // The test reports the gateway's log itself: the errors of the outage are expected there.
  const gateway = await startGatewayProcess({ DATABASE_URL: cluster.url, ADMIN_TOKEN, MASTER_KEY }, { echo: false });
  onStart(gateway);
  const { process: child, base, admin } = gateway;

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
  const listenersBefore = await waitFor(async () => {
    const count = await listeners(cluster);
    return count === 1 ? count : undefined;
  }, { timeout: 5_000, interval: 25, message: 'one change-feed listener before the outage' }).catch(() => listeners(cluster));

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
    await waitFor(
      () => {
        if (child.exitCode !== null) return 'exited';
        const sample = { calls, timeline };
        return firstSuccessAfter(sample, 'login') !== undefined && firstSuccessAfter(sample, 'readyz') !== undefined;
      },
      { timeout: 15_000, interval: 25, message: 'a login and a readyz answered after the outage' },
    ).catch(() => {});
    await delay(UP_AFTER_MS);
    listenersAfter = await waitFor(
      async () => {
        const count = await listeners(cluster);
        return count === 1 ? { count, afterMs: Date.now() - accepting } : undefined;
      },
      { timeout: 10_000, interval: 25, message: 'one change-feed listener after the outage' },
    ).catch(async () => ({ count: await listeners(cluster), afterMs: Date.now() - accepting }));
  } finally {
    stopped = true;
    await Promise.all(workers);
    child.removeListener('exit', onExit);
  }

  await stopGatewayProcess(gateway, 'SIGTERM');
  const exit = await gateway.exited;
  const client = new pg.Client({ connectionString: cluster.url });
  await client.connect();
  const rows = (await client.query<{ action: string; status: number; count: string }>('select action, status, sum(count) as count from audit_log group by action, status')).rows;
  await client.end();
  const audited = new Map(rows.map((row) => [`${row.action} ${row.status}`, Number(row.count)]));
  return { calls, timeline, bankList, listenersBefore, listenersAfter, exitedDuringLoad, exit, stdout: gateway.stdout(), stderr: gateway.stderr(), audited };
}

/** When the first request of `kind` answered 200 after the restarted server accepted connections. */
export function firstSuccessAfter(outcome: Pick<Outcome, 'calls' | 'timeline'>, kind: Kind): number | undefined {
  const ends = outcome.calls.filter((call) => call.kind === kind && call.status === 200 && call.end >= outcome.timeline.accepting).map((call) => call.end);
  return ends.length > 0 ? Math.min(...ends) : undefined;
}

export function describeCall(call: Call): string {
  return `${call.status} after ${call.end - call.start} ms${call.error ? ` (${call.error})` : ''}: ${call.body.slice(0, 300)}`;
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

/** The scenario's phases last this long: load before, during and after the outage (the scenario's timeline, not a wait for a condition). */
function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
