/**
 * What a start says about its settings and backends, through the real entry point (src/main.ts): every problem
 * of the settings at once, a database that cannot be reached in one line, the production command with its
 * secrets in files, the embedded database refused in production unless meant, the start log naming the
 * backends and the public URL, and a database a newer version migrated refused.
 */
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { sql } from 'kysely';
import { openDatabase } from '../../src/db/database.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { projectFile } from '../../src/project-root.js';
import { freePort } from '../support/free-port.js';
import { startGatewayProcess, stopGatewayProcess, type GatewayProcess } from '../support/gateway-process.js';
import { nodeEntry } from '../support/node-entry.js';
import { adminQuery } from '../support/test-databases.js';
import { waitFor } from '../support/wait-for.js';

const postgresUrl = process.env.TEST_DATABASE_URL;
const directory = mkdtempSync(join(tmpdir(), 'settings-at-start-'));
after(() => rmSync(directory, { recursive: true, force: true }));

/** A file of the directory holding `content` (a mounted secret). */
function secretFile(name: string, content: string): string {
  writeFileSync(join(directory, name), content, { mode: 0o600 });
  return join(directory, name);
}
const ADMIN_TOKEN = randomBytes(32).toString('hex');
const MASTER_KEY = randomBytes(32).toString('hex');
const ADMIN_TOKEN_FILE = secretFile('admin-token', `${ADMIN_TOKEN}\n`);
const MASTER_KEY_FILE = secretFile('master-key', `${MASTER_KEY}\n`);

/** Runs src/main.ts (`nodeEntry`) with `env` alone (and PATH) until it exits; for starts that must not get far. */
function runMain(env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, nodeEntry('src/main.ts'), { env: { PATH: process.env.PATH ?? '', PORT: '0', ADMIN_PORT: '0', ...env }, timeout: 60_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr }),
    );
  });
}

/** A database of this suite's own on the test PostgreSQL server, dropped at the end. */
async function ownDatabase(): Promise<string> {
  const name = `settings_${randomBytes(5).toString('hex')}`;
  await adminQuery(postgresUrl!, `create database ${name}`);
  after(() => adminQuery(postgresUrl!, `drop database if exists ${name} with (force)`));
  const url = new URL(postgresUrl!);
  url.pathname = `/${name}`;
  return url.href;
}

/** The JSON log lines a process wrote; every line must be one. */
function logLines(text: string): Array<Record<string, unknown>> {
  return text
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

const listeningLine = (gateway: GatewayProcess) => logLines(gateway.stdout()).find((entry) => entry.msg === 'partner gateway listening');
/** The start log's line: /readyz may answer before pino has written it. */
const listening = async (gateway: GatewayProcess) => {
  await waitFor(() => listeningLine(gateway) !== undefined, { message: 'the start log line' });
  return listeningLine(gateway);
};

describe('settings at start', () => {
  it('when a production environment is empty, then one start lists every missing setting with what a valid value looks like, exits 2, and shows no stack trace', async () => {
    const { code, stdout, stderr } = await runMain({ NODE_ENV: 'production' });
    assert.equal(code, 2);
    assert.equal(stdout, '');
    const lines = stderr.trim().split('\n');
    assert.equal(lines[0], 'Invalid configuration (4 problems):');
    assert.deepEqual(
      lines.slice(1).map((line) => /^ {2}- ([A-Z_]+) /.exec(line)?.[1]),
      ['PUBLIC_URL', 'DATABASE_URL', 'ADMIN_TOKEN', 'MASTER_KEY'],
    );
    assert.match(stderr, /MASTER_KEY .*64 hex characters or 44 base64 characters/);
    assert.doesNotMatch(stderr, /\n\s+at /);
  });

  it('when DATABASE_URL cannot be reached, then the start says so in one line naming DATABASE_URL and the cause, without the password or a stack trace, and exits 1', async () => {
    const port = await freePort();
    const { code, stdout, stderr } = await runMain({
      NODE_ENV: 'production',
      PUBLIC_URL: 'https://partners.example.com',
      DATABASE_URL: `postgres://gateway:hunter2-not-shown@127.0.0.1:${port}/gateway`,
      ADMIN_TOKEN_FILE,
      MASTER_KEY_FILE,
    });
    assert.equal(code, 1);
    assert.equal(stderr, '');
    const lines = logLines(stdout);
    assert.equal(lines.length, 1, stdout);
    assert.equal(lines[0]!.level, 'fatal');
    assert.equal(lines[0]!.setting, 'DATABASE_URL');
    assert.match(String(lines[0]!.msg), new RegExp(`^DATABASE_URL: cannot reach PostgreSQL at 127\\.0\\.0\\.1:${port}/gateway \\(.*ECONNREFUSED`));
    assert.ok(!stdout.includes('hunter2') && !stdout.includes('"stack"'), stdout);
  });

  it('when NODE_ENV is production without DATABASE_URL, then the start is refused naming ALLOW_EMBEDDED_DATABASE; with it, the log names the embedded database, no Redis, and PUBLIC_URL', async () => {
    const refused = await runMain({ NODE_ENV: 'production', PUBLIC_URL: 'https://partners.example.com', DATA_DIR: join(directory, 'refused') });
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /DATABASE_URL is required when NODE_ENV is production.*ALLOW_EMBEDDED_DATABASE=true/);
    const dataDir = join(directory, 'embedded');
    const gateway = await startGatewayProcess({ ALLOW_EMBEDDED_DATABASE: 'true', PUBLIC_URL: 'https://partners.example.com', DATA_DIR: dataDir, LOG_LEVEL: 'info', REDIS_URL: '' }, { echo: false });
    try {
      const line = (await listening(gateway))!;
      assert.equal(line.publicUrl, 'https://partners.example.com', 'the banner\'s address');
      assert.equal(line.listening, gateway.base);
      assert.deepEqual(line.database, { kind: 'pglite', dataDir });
      assert.match(String(line.redis), /^none/);
      assert.equal(line.level, 'info');
      assert.match(String(line.time), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    } finally {
      await stopGatewayProcess(gateway);
    }
  });

  it('when the production command is run with its secrets in files, then the gateway serves, the admin token from the file works, a Redis it cannot reach is one warning and a degraded start, and a second start (Redis up) uses the same key', { skip: postgresUrl ? false : 'TEST_DATABASE_URL is not set' }, async () => {
    const databaseUrl = await ownDatabase();
    const env = {
      NODE_ENV: 'production',
      DATABASE_URL_FILE: secretFile('database-url', `${databaseUrl}\n`),
      PUBLIC_URL: 'https://partners.example.com',
      ADMIN_TOKEN_FILE,
      MASTER_KEY_FILE,
      LOG_LEVEL: 'info',
      ALLOW_EMBEDDED_DATABASE: '',
    };
    const closed = await freePort();
    const first = await startGatewayProcess({ ...env, REDIS_URL: `redis://127.0.0.1:${closed}` }, { echo: false });
    try {
      const lines = logLines(first.stdout());
      const redisLines = lines.filter((entry) => entry.setting === 'REDIS_URL');
      assert.equal(redisLines.length, 1);
      assert.equal(redisLines[0]!.level, 'warn');
      assert.match(String(redisLines[0]!.msg), new RegExp(`^REDIS_URL: cannot reach Redis at 127\\.0\\.0\\.1:${closed} \\(.*ECONNREFUSED.*\\); starting degraded`));
      const line = (await listening(first))!;
      assert.equal(line.publicUrl, 'https://partners.example.com');
      assert.deepEqual(line.database, { kind: 'postgres', host: '127.0.0.1', port: Number(new URL(databaseUrl).port || 5432), database: new URL(databaseUrl).pathname.slice(1) });
      assert.deepEqual(line.redis, { at: `127.0.0.1:${closed}`, state: 'unreachable (degraded: the database stands in)' });
      assert.ok(!first.stdout().includes(ADMIN_TOKEN) && !first.stdout().includes(MASTER_KEY), 'no secret in the log');
      const partners = await fetch(`${first.admin}/admin/v1/partners`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
      assert.equal(partners.status, 200);
      assert.equal((await fetch(`${first.base}/.well-known/jwks.json`)).status, 200, 'serving on the fallback');
    } finally {
      await stopGatewayProcess(first);
    }
    const redisUrl = process.env.TEST_REDIS_URL;
    const second = await startGatewayProcess({ ...env, REDIS_URL: redisUrl ?? '' }, { echo: false });
    try {
      const line = (await listening(second))!;
      if (redisUrl) assert.deepEqual(line.redis, { at: `${new URL(redisUrl).hostname}:${new URL(redisUrl).port || 6379}`, state: 'up' });
      assert.ok(!second.stdout().includes('cannot reach'));
    } finally {
      await stopGatewayProcess(second);
    }
  });

  for (const backend of ['pglite', 'postgres'] as const) {
    it(`when the database (${backend}) was migrated by a newer version, then the start is refused saying so, in one line`, { skip: backend === 'postgres' && !postgresUrl ? 'TEST_DATABASE_URL is not set' : false }, async () => {
      const dataDir = join(directory, `newer-${backend}`);
      mkdirSync(dataDir, { mode: 0o700 });
      const databaseUrl = backend === 'postgres' ? await ownDatabase() : undefined;
      const handle = await openDatabase({ url: databaseUrl, dataDir });
      try {
        await migrateToLatest(handle.db);
        await sql`insert into kysely_migration (name, timestamp) values ('9999-from-a-newer-version', ${new Date().toISOString()})`.execute(handle.db);
      } finally {
        await handle.close();
      }
      const { code, stdout, stderr } = await runMain({ DATA_DIR: dataDir, ...(databaseUrl ? { DATABASE_URL: databaseUrl, ADMIN_TOKEN_FILE, MASTER_KEY_FILE } : {}) });
      assert.equal(code, 1, stderr);
      const lines = logLines(stdout);
      assert.equal(lines.length, 1, stdout);
      assert.equal(lines[0]!.setting, backend === 'postgres' ? 'DATABASE_URL' : 'DATA_DIR');
      assert.match(String(lines[0]!.msg), /the database was migrated by a newer version of the gateway: migration 9999-from-a-newer-version unknown to this version/);
    });
  }
});
