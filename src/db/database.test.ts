import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'kysely';
import pg from 'pg';
import { projectFile } from '../project-root.js';
import { backupPglite, openDatabase } from './database.js';
import { migrateToLatest } from './migrate.js';

const url = process.env.TEST_DATABASE_URL;

describe('the PostgreSQL connection pool', { skip: url ? false : 'TEST_DATABASE_URL is not set' }, () => {
  it('survives the server ending a session between two statements of a transaction, and connects again', async (t) => {
    // Watches, without changing, the 'error' events pg's clients emit: the one of the ended session is awaited.
    const emit = pg.Client.prototype.emit;
    let fatalReached!: () => void;
    const fatal = new Promise<void>((resolve) => (fatalReached = resolve));
    t.mock.method(pg.Client.prototype, 'emit', function (this: pg.Client, event: string | symbol, ...args: unknown[]) {
      if (event === 'error' && (args[0] as { code?: string } | undefined)?.code === '57P01') fatalReached();
      return emit.call(this, event, ...args);
    });
    const handle = await openDatabase({ url, poolSize: 2 });
    try {
      await assert.rejects(
        handle.db.transaction().execute(async (trx) => {
          const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx);
          await terminate(rows[0]!.pid);
          // The FATAL reaches the client while no statement of ours is running: the moment a fast shutdown
          // can pick, which crashed the process with an unhandled 'error' event.
          await fatal;
          await sql`select 1`.execute(trx);
        }),
      );
      await handle.ping();
    } finally {
      await handle.close();
    }
  });
});

/** Ends a session from another connection, as a fast shutdown does (FATAL 57P01), and waits until it is gone. */
async function terminate(pid: number): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('select pg_terminate_backend($1, 5000)', [pid]);
  } finally {
    await client.end();
  }
}

describe('the embedded database in a DATA_DIR', () => {
  const clusterScript = projectFile('scripts/make-pglite-cluster.mjs');

  it('when the DATA_DIR is empty, then it starts from a copy of the cluster the build ships (no initdb), with a 16 MB buffer cache, migrates it fully and keeps its rows across a restart', async () => {
    // What `npm run build` does: the shipped cluster for this PGlite version (kept when there already).
    assert.equal(spawnSync(process.execPath, [clusterScript], { stdio: 'inherit' }).status, 0);
    const shipped = readdirSync(projectFile('dist')).find((name) => /^pglite-cluster-[^/]+$/.test(name) && !name.endsWith('.partial'))!;
    // pg_control begins with the cluster's system identifier, a little-endian uint64 that initdb draws afresh.
    const expected = readFileSync(projectFile(`dist/${shipped}/global/pg_control`)).readBigUInt64LE(0).toString();
    const identifier = async (query: (text: string) => Promise<{ rows: unknown[] }>) =>
      String(((await query('select system_identifier::text as id from pg_control_system()')).rows[0] as { id: string }).id);

    const shippedControl = readFileSync(projectFile(`dist/${shipped}/global/pg_control`));
    const dataDir = mkdtempSync(join(tmpdir(), 'pglite-shipped-'));
    try {
      const first = await openDatabase({ dataDir });
      try {
        assert.equal(await identifier(async (text) => sql.raw(text).execute(first.db)), expected, 'the shipped cluster, not one initdb made');
        const { rows } = await sql<{ shared_buffers: string }>`show shared_buffers`.execute(first.db);
        assert.equal(rows[0]!.shared_buffers, '16MB');
        await migrateToLatest(first.db);
        await sql`create table probe_kept (value text)`.execute(first.db);
        await sql`insert into probe_kept values ('kept')`.execute(first.db);
      } finally {
        await first.close();
      }
      const again = await openDatabase({ dataDir });
      try {
        const applied = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(again.db);
        const files = readdirSync(projectFile('src/db/migrations')).filter((name) => /^\d{4}-[a-z0-9-]+\.ts$/.test(name));
        assert.equal(applied.rows.length, files.length, 'every migration applied');
        const kept = await sql<{ value: string }>`select value from probe_kept`.execute(again.db);
        assert.deepEqual(kept.rows, [{ value: 'kept' }]);
      } finally {
        await again.close();
      }
      assert.deepEqual(readFileSync(projectFile(`dist/${shipped}/global/pg_control`)), shippedControl, 'the shipped cluster itself is never opened');
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('when a first start stopped while copying the shipped cluster (no PG_VERSION yet), then the next start copies it again over what it left and opens it', async () => {
    assert.equal(spawnSync(process.execPath, [clusterScript], { stdio: 'inherit' }).status, 0);
    const dataDir = mkdtempSync(join(tmpdir(), 'pglite-half-copied-'));
    try {
      const directory = join(dataDir, 'pglite');
      mkdirSync(join(directory, 'global'), { recursive: true });
      writeFileSync(join(directory, 'global', 'pg_control'), 'cut short');
      writeFileSync(join(directory, 'postgresql.conf'), '');
      const handle = await openDatabase({ dataDir });
      try {
        await migrateToLatest(handle.db);
        const { rows } = await sql<{ shared_buffers: string }>`show shared_buffers`.execute(handle.db);
        assert.equal(rows[0]!.shared_buffers, '16MB');
      } finally {
        await handle.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('when the DATA_DIR holds a cluster PGlite made itself (initdb, as before the shipped one), then it opens with its rows', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'pglite-initdb-'));
    try {
      const before = new PGlite(join(dataDir, 'pglite'));
      await before.exec(`create table kept (value text); insert into kept values ('from before')`);
      await before.close();
      const handle = await openDatabase({ dataDir });
      try {
        const { rows } = await sql<{ value: string }>`select value from kept`.execute(handle.db);
        assert.deepEqual(rows, [{ value: 'from before' }]);
      } finally {
        await handle.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });

  it('when a database on disk is backed up while a write waits, then PGlite opens the archive with every row committed before it and none after', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'pglite-backup-'));
    try {
      const handle = await openDatabase({ dataDir });
      try {
        await sql`create table kept (value text)`.execute(handle.db);
        await sql`insert into kept select 'row ' || n from generate_series(1, 1000) as n`.execute(handle.db);
        // Asked for after the backup: it waits for the backup's transaction slot, so the archive cannot hold it.
        const backup = backupPglite(handle);
        const later = sql`insert into kept values ('after')`.execute(handle.db);
        const archive = (await backup)!;
        await later;
        assert.deepEqual([...new Uint8Array(await archive.slice(0, 2).arrayBuffer())], [0x1f, 0x8b], 'gzip');
        const restored = new PGlite({ loadDataDir: archive });
        try {
          const { rows } = await restored.query<{ n: number; after: number }>(`select count(*)::int as n, count(*) filter (where value = 'after')::int as after from kept`);
          assert.deepEqual(rows[0], { n: 1000, after: 0 });
        } finally {
          await restored.close();
        }
      } finally {
        await handle.close();
      }
    } finally {
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
