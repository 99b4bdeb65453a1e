import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { connect, createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { Writable } from 'node:stream';
import { promisify } from 'node:util';
import pg from 'pg';
import { pino } from 'pino';
import { loadConfig } from './config.js';
import { startServer } from './server.js';

const silent = pino({ level: 'silent' });
const run = promisify(execFile);

describe('server start-up on the embedded database', () => {
  it('generates the admin token (0600), creates the demo partner once, and the printed curl logs in', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'gateway-'));
    const env = { DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: '0', ADMIN_PORT: '0', NODE_ENV: 'development' };
    const printed: string[] = [];
    const server = await startServer(loadConfig(env), silent, (text) => printed.push(text));
    let jwks: { keys: Array<{ kid: string }> };
    try {
      assert.equal(printed.length, 1, 'one block');
      const output = printed[0]!;
      const lines = output.trim().split('\n');
      assert.match(lines[0]!, /^=+$/);
      assert.equal(lines.at(-1), lines[0], 'framed');
      const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
      assert.equal(lines[1], `Partner Gateway ${version} is ready: API ${server.publicUrl}, admin API ${server.adminUrl}`);
      const tokenFile = join(dataDir, 'admin-token');
      assert.ok(output.includes(`token: generated into ${tokenFile}`));
      assert.equal(statSync(tokenFile).mode & 0o777, 0o600);
      assert.ok(output.includes(`JWKS:     ${server.publicUrl}/.well-known/jwks.json`));

      const curl = /^\s+(curl .*)$/m.exec(output)?.[1];
      assert.ok(curl, output);
      const { stdout } = await run('sh', ['-c', curl]);
      const body = JSON.parse(stdout);
      assert.equal(body.token_type, 'bearer');
      const banks = await fetch(`${server.publicUrl}/partner/provider/sbp/banks/`, { method: 'POST', headers: { authorization: `Bearer ${body.access_token}` } });
      assert.equal(banks.status, 200);
      assert.equal(((await banks.json()) as { banks: unknown[] }).banks.length, 39);

      // The banks command, pasted as printed: its lines under its heading, up to the frame.
      const banksCommand = /List the banks with a token \(bash or zsh\):\n((?: {2}.*\n)+)/.exec(output)?.[1];
      assert.ok(banksCommand, output);
      const listed = await run('bash', ['-c', banksCommand]);
      assert.equal((JSON.parse(listed.stdout) as { banks: unknown[] }).banks.length, 39);
      await assert.rejects(run('bash', ['-c', banksCommand.replace(/"password":"[^"]+"/, '"password":"not-the-password"')]), 'a failed login stops the pair: no banks call with an empty token');

      assert.equal((await fetch(`${server.publicUrl}/healthz`)).status, 200);
      assert.equal((await fetch(`${server.publicUrl}/readyz`)).status, 200);
      const token = readFileSync(tokenFile, 'utf8').trim();
      const admin = await fetch(`${server.adminUrl}/admin/v1/partners`, { headers: { authorization: `Bearer ${token}` } });
      assert.equal(admin.status, 200);
      assert.equal((await fetch(`${server.publicUrl}/admin/v1/partners`, { headers: { authorization: `Bearer ${token}` } })).status, 404, 'the admin API is not on the public port');
      jwks = (await (await fetch(`${server.publicUrl}/.well-known/jwks.json`)).json()) as typeof jwks;

      await assert.rejects(startServer(loadConfig(env), silent, () => {}), /DATA_DIR .* is in use/);
    } finally {
      await server.close();
    }

    const again: string[] = [];
    const restarted = await startServer(loadConfig(env), silent, (text) => again.push(text));
    try {
      assert.ok(!again.join('\n').includes('demo partner'), 'the demo partner is created only on a first start');
      assert.ok(again.join('\n').includes('token: read from'));
      const after = (await (await fetch(`${restarted.publicUrl}/.well-known/jwks.json`)).json()) as typeof jwks;
      assert.deepEqual(after.keys.map((key) => key.kid), jwks.keys.map((key) => key.kid), 'keys survive a restart');
    } finally {
      await restarted.close();
    }
  });

  it('removes the demo partner again when the start fails before its password is shown, so the next start shows one', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'gateway-'));
    const taken = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = String((taken.address() as AddressInfo).port);
    const env = { DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: '0', ADMIN_PORT: port, NODE_ENV: 'development' };
    const printed: string[] = [];
    try {
      await assert.rejects(startServer(loadConfig(env), silent, (text) => printed.push(text)), /EADDRINUSE/);
    } finally {
      taken.close();
    }
    assert.equal(printed.length, 0, 'nothing printed by the failed start');
    const server = await startServer(loadConfig({ ...env, ADMIN_PORT: '0' }), silent, (text) => printed.push(text));
    await server.close();
    assert.match(printed.join('\n'), /A demo partner was created[^]*password: \S+/);
  });

  it('creates no demo partner in production', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'gateway-'));
    const printed: string[] = [];
    const server = await startServer(
      loadConfig({ DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: '0', ADMIN_PORT: '0', NODE_ENV: 'production', ALLOW_EMBEDDED_DATABASE: 'true', PUBLIC_URL: 'http://127.0.0.1:8080' }),
      silent,
      (text) => printed.push(text),
    );
    await server.close();
    assert.ok(!printed.join('\n').includes('demo partner'));
  });

  it('when partners hold reward types REWARD_TYPES no longer lists, then the start logs one warning naming them', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'gateway-'));
    const env = { DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: '0', ADMIN_PORT: '0', NODE_ENV: 'development' };
    const first = await startServer(loadConfig({ ...env, REWARD_TYPES: 'sbp,spb' }), silent, () => {});
    try {
      const created = await fetch(`${first.adminUrl}/admin/v1/partners`, {
        method: 'POST',
        headers: { authorization: `Bearer ${readFileSync(join(dataDir, 'admin-token'), 'utf8').trim()}`, 'content-type': 'application/json' },
        body: JSON.stringify({ login: 'typo-shop', password: 'a long enough password', ipAllowlist: [], rewardTypes: ['spb'] }),
      });
      assert.equal(created.status, 201);
    } finally {
      await first.close();
    }
    const lines: Array<{ level: number; msg: string; partners?: unknown }> = [];
    const logger = pino({ level: 'info' }, new Writable({ write(chunk, _encoding, done) { lines.push(JSON.parse(String(chunk))); done(); } }));
    const second = await startServer(loadConfig(env), logger, () => {});
    await second.close();
    const warnings = lines.filter((line) => line.msg.includes('REWARD_TYPES'));
    assert.equal(warnings.length, 1);
    assert.equal(warnings[0]!.level, 40);
    assert.deepEqual(warnings[0]!.partners, [{ login: 'typo-shop', unknownRewardTypes: ['spb'] }]);
  });
});

describe('server shutdown', () => {
  it('cuts a connection still sending after SHUTDOWN_TIMEOUT_MS and writes every audit entry before closing', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'gateway-'));
    const adminToken = randomBytes(24).toString('hex');
    const env = { DATA_DIR: dataDir, HOST: '127.0.0.1', PORT: '0', ADMIN_PORT: '0', NODE_ENV: 'production', ALLOW_EMBEDDED_DATABASE: 'true', PUBLIC_URL: 'http://127.0.0.1:8080', ADMIN_TOKEN: adminToken, SHUTDOWN_TIMEOUT_MS: '300' };
    const admin = { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' };
    const partner = { login: 'shutdown-partner', password: 'a password for the shutdown test' };
    const warnings: string[] = [];
    const logger = pino({ level: 'warn' }, new Writable({
      write(chunk, _encoding, callback) {
        warnings.push(String(chunk));
        callback();
      },
    }));
    const server = await startServer(loadConfig(env), logger, () => {});
    const created = await fetch(`${server.adminUrl}/admin/v1/partners`, { method: 'POST', headers: admin, body: JSON.stringify({ ...partner, ipAllowlist: ['127.0.0.1'], rewardTypes: ['sbp'] }) });
    assert.equal(created.status, 201);
    const logins = 12;
    for (let i = 0; i < logins; i++) {
      const login = await fetch(`${server.publicUrl}/api/v1/login/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(partner) });
      assert.equal(login.status, 200);
    }
    // A body that will never be complete. Node stops checking request timeouts once its server is closing,
    // so without the bound this connection would hold the shutdown until the process is killed.
    const trickling = connect(Number(new URL(server.publicUrl).port), '127.0.0.1');
    await new Promise((resolve) => trickling.once('connect', resolve));
    // Expect: 100-continue makes Node answer once it has read the headers: from then on the request is in flight.
    const continued = new Promise((resolve) => trickling.once('data', resolve));
    trickling.write('POST /api/v1/login/ HTTP/1.1\r\nHost: gateway\r\nContent-Type: application/json\r\nContent-Length: 100\r\nExpect: 100-continue\r\n\r\n');
    assert.match(String(await continued), /^HTTP\/1\.1 100 Continue/);
    trickling.write('{"lo');
    const cut = new Promise((resolve) => trickling.once('close', resolve));

    // Without the bound close() would never return (the test's own timeout would end it), so no clock is read.
    await server.close();
    await cut;
    assert.ok(warnings.some((line) => line.includes('shutdown: cutting connections still open')), 'the bound, not the client, ended it');

    const restarted = await startServer(loadConfig(env), silent, () => {});
    try {
      const audit = await fetch(`${restarted.adminUrl}/admin/v1/audit?partner=${partner.login}&action=login&limit=1000`, { headers: admin });
      const { entries } = (await audit.json()) as { entries: Array<{ outcome: string }> };
      assert.equal(entries.filter((entry) => entry.outcome === 'success').length, logins);
    } finally {
      await restarted.close();
    }
  });
});

const url = process.env.TEST_DATABASE_URL;
describe('server start-up on PostgreSQL', { skip: url ? false : 'TEST_DATABASE_URL is not set' }, () => {
  it('lets several instances start at once on an empty database: one schema, one key per use, one seeding, one demo partner', async () => {
    const schema = `start_${randomBytes(5).toString('hex')}`;
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    await admin.query(`create schema ${schema}`);
    const env = {
      DATABASE_URL: `${url}?options=${encodeURIComponent(`-c search_path=${schema}`)}`,
      ADMIN_TOKEN: randomBytes(24).toString('hex'),
      MASTER_KEY: randomBytes(32).toString('hex'),
      HOST: '127.0.0.1',
      PORT: '0',
      ADMIN_PORT: '0',
    };
    const printed: string[] = [];
    const started = await Promise.allSettled([1, 2, 3].map(() => startServer(loadConfig(env), silent, (text) => printed.push(text))));
    // The instances that started are closed whatever happened to the others (an open one would keep the test alive).
    const servers = started.flatMap((result) => (result.status === 'fulfilled' ? [result.value] : []));
    try {
      const failed = started.find((result) => result.status === 'rejected');
      if (failed) throw failed.reason;
      const keys = await admin.query(`select use, count(*)::int as n from ${schema}.crypto_keys group by use order by use`);
      assert.deepEqual(keys.rows, [{ use: 'enc', n: 1 }, { use: 'sig', n: 1 }]);
      const banks = await admin.query(`select count(*)::int as n from ${schema}.banks`);
      assert.equal(banks.rows[0].n, 39);
      const partners = await admin.query(`select login from ${schema}.partners`);
      assert.deepEqual(partners.rows, [{ login: 'demo' }]);
      assert.equal(printed.filter((text) => text.includes('demo partner was created')).length, 1);
      const kids = await Promise.all(servers.map(async (server) => ((await (await fetch(`${server.publicUrl}/.well-known/jwks.json`)).json()) as { keys: Array<{ kid: string }> }).keys.map((k) => k.kid).join()));
      assert.equal(new Set(kids).size, 1, 'every instance publishes the same keys');
    } finally {
      await Promise.all(servers.map((server) => server.close()));
      await admin.query(`drop schema ${schema} cascade`);
      await admin.end();
    }
  });
});
