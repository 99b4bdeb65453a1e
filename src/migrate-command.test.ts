import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'kysely';
import { runCli } from './cli/run-cli.js';
import { openDatabase } from './db/database.js';
import { shippedClusterDirectory } from './db/shipped-cluster.js';
import { cliHarness } from '../test/support/cli-harness.js';
import { adminQuery } from '../test/support/test-databases.js';

const MIGRATIONS = readdirSync(new URL('./db/migrations/', import.meta.url)).filter((name) => /^\d{4}-[a-z0-9-]+\.ts$/.test(name)).map((name) => name.slice(0, -3)).sort();
const postgresUrl = process.env.TEST_DATABASE_URL;

/**
 * A fresh database of each backend, with no migration applied: a DATA_DIR holding a cluster of PGlite's own
 * initdb (a new DATA_DIR starts from the build's cluster, migrated already), or a PostgreSQL database of its own.
 */
const backends: Array<{ name: string; skip: string | false; env: () => Promise<Record<string, string>> }> = [
  {
    name: 'pglite',
    skip: false,
    env: async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'migrate-command-'));
      after(() => rmSync(dataDir, { recursive: true, force: true }));
      await new PGlite(join(dataDir, 'pglite')).close();
      return { DATA_DIR: dataDir };
    },
  },
  {
    name: 'postgres',
    skip: postgresUrl ? false : 'TEST_DATABASE_URL is not set',
    env: async () => {
      const name = `migrate_${randomBytes(5).toString('hex')}`;
      await adminQuery(postgresUrl!, `create database ${name}`);
      after(() => adminQuery(postgresUrl!, `drop database if exists ${name} with (force)`));
      const url = new URL(postgresUrl!);
      url.pathname = `/${name}`;
      return { DATABASE_URL: url.href };
    },
  },
];

async function run(argv: string[], env: Record<string, string>) {
  const cli = cliHarness(env);
  const code = await runCli(argv, cli.io);
  return { code, stdout: cli.stdout(), stderr: cli.stderr() };
}

for (const backend of backends) {
  describe(`partner-gateway migrate (${backend.name})`, { skip: backend.skip }, () => {
    it('when run with --dry-run, then it lists every pending migration and changes nothing; run without, it applies them; run again, there is nothing to do', async () => {
      const env = await backend.env();
      const dry = await run(['migrate', '--dry-run'], env);
      assert.equal(dry.code, 0, dry.stderr);
      assert.match(dry.stdout, new RegExp(`: 0 migrations applied, ${MIGRATIONS.length} pending\\nWould apply:\\n${MIGRATIONS.map((name) => `  ${name}\\n`).join('')}\\(--dry-run: nothing changed\\)\\n$`));
      assert.match((await run(['migrate', '--dry-run'], env)).stdout, new RegExp(`${MIGRATIONS.length} pending`), 'the dry run changed nothing');
      const applied = await run(['migrate'], env);
      assert.equal(applied.code, 0, applied.stderr);
      assert.match(applied.stdout, new RegExp(`Applied:\\n${MIGRATIONS.map((name) => `  ${name}\\n`).join('')}$`));
      const again = await run(['migrate', '--dry-run'], env);
      assert.match(again.stdout, new RegExp(`: ${MIGRATIONS.length} migrations applied, 0 pending\\nUp to date: nothing to apply.\\n$`));
    });

    it('when the database was migrated by a newer version, then it refuses with exit 1, naming the unknown migration', async () => {
      const env = await backend.env();
      assert.equal((await run(['migrate'], env)).code, 0);
      const handle = await openDatabase({ url: env.DATABASE_URL, dataDir: env.DATA_DIR });
      await sql`insert into kysely_migration (name, timestamp) values ('9999-from-a-newer-version', ${new Date().toISOString()})`.execute(handle.db);
      await handle.close();
      const refused = await run(['migrate', '--dry-run'], env);
      assert.equal(refused.code, 1);
      assert.match(refused.stderr, /migrated by a newer version of the gateway: 9999-from-a-newer-version unknown to this version/);
    });
  });
}

describe('partner-gateway migrate on a new DATA_DIR', () => {
  it('when the DATA_DIR is new, then it starts from the cluster the build ships, every migration applied: nothing to apply', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'migrate-command-new-'));
    after(() => rmSync(dataDir, { recursive: true, force: true }));
    assert.ok(shippedClusterDirectory(), 'npm run build makes the shipped cluster (dist/pglite-cluster-<version>/)');
    const dry = await run(['migrate', '--dry-run'], { DATA_DIR: dataDir });
    assert.equal(dry.code, 0, dry.stderr);
    assert.match(dry.stdout, new RegExp(`: ${MIGRATIONS.length} migrations applied, 0 pending\\nUp to date: nothing to apply.\\n$`));
  });
});

describe('partner-gateway migrate, its settings and usage', () => {
  it('when DATABASE_URL is not a postgres URL or an option is unknown, then exit 2 saying what is valid; when the database cannot be reached, exit 1 naming DATABASE_URL without the password', async () => {
    const bad = await run(['migrate'], { DATABASE_URL: 'not-a-url' });
    assert.equal(bad.code, 2);
    assert.match(bad.stderr, /DATABASE_URL: a postgres:\/\/ or postgresql:\/\/ URL/);
    assert.equal((await run(['migrate', '--force'], {})).code, 2);
    const unreachable = await run(['migrate'], { DATABASE_URL: 'postgres://gw:hunter2@127.0.0.1:1/gateway' });
    assert.equal(unreachable.code, 1);
    assert.match(unreachable.stderr, /^DATABASE_URL: cannot reach PostgreSQL at 127\.0\.0\.1:1\/gateway \(.*ECONNREFUSED/);
    assert.ok(!unreachable.stderr.includes('hunter2'));
  });
});
