import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import type { Kysely } from 'kysely';
import { openDatabase, type DatabaseKind } from '../../src/db/database.js';
import type { Database } from '../../src/db/schema.js';
import { adminQuery } from '../../test/support/test-databases.js';

/** One database the bench runs the gateway on: the embedded default in a new DATA_DIR, or a PostgreSQL schema of its own. */
export interface BenchBackend {
  name: DatabaseKind;
  /** The gateway's settings for it (DATA_DIR, and DATABASE_URL on PostgreSQL). */
  env: Record<string, string>;
  /** Works on the database directly, without statement timeouts; on PGlite only while the gateway is stopped (one owner). */
  withDatabase<T>(work: (db: Kysely<Database>) => Promise<T>): Promise<T>;
  /** Drops the schema (PostgreSQL). */
  close(): Promise<void>;
}

export async function openBenchBackend(name: DatabaseKind, options: { workDir: string; databaseUrl: string; suffix?: string }): Promise<BenchBackend> {
  const dataDir = join(options.workDir, `data-${name}${options.suffix ?? ''}`);
  if (name === 'pglite') {
    return {
      name,
      env: { DATA_DIR: dataDir },
      async withDatabase(work) {
        const handle = await openDatabase({ dataDir });
        try {
          return await work(handle.db);
        } finally {
          await handle.close();
        }
      },
      close: async () => {},
    };
  }
  const schema = `bench_${randomBytes(4).toString('hex')}`;
  await adminQuery(options.databaseUrl, `create schema ${schema}`);
  const url = options.databaseUrl;
  process.once('exit', () => {
    // A bench stopped half-way drops its schema on the way out, in a process that outlives this one.
    spawn('psql', [url, '-c', `drop schema if exists ${schema} cascade`], { stdio: 'ignore', detached: true }).unref();
  });
  return {
    name,
    env: { DATA_DIR: dataDir, DATABASE_URL: `${url}${url.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}` },
    async withDatabase(work) {
      const handle = await openDatabase({ url, searchPath: schema, poolSize: 2, queryTimeoutMs: 3_600_000 });
      try {
        return await work(handle.db);
      } finally {
        await handle.close();
      }
    },
    close: () => adminQuery(url, `drop schema if exists ${schema} cascade`),
  };
}
