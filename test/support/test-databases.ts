import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { openDatabase, type DatabaseHandle, type DatabaseKind } from '../../src/db/database.js';
import { migrateToLatest, migrateUpTo } from '../../src/db/migrate.js';

/** How to open another handle on the database of a handle `open()` returned (a second instance's connection). */
const siblings = new WeakMap<DatabaseHandle, () => Promise<DatabaseHandle>>();

/**
 * Another handle on the same database as `handle`, as a second gateway instance would have: a pool of its own on
 * the same PostgreSQL schema, or, on PGlite (one process alone opens it), the same handle, which closing this one
 * leaves open.
 */
export function siblingHandle(handle: DatabaseHandle): Promise<DatabaseHandle> {
  const open = siblings.get(handle);
  if (!open) throw new Error('not a handle of testBackends()');
  return open();
}

export interface TestBackend {
  name: DatabaseKind;
  /**
   * A fresh, migrated, empty database: in-memory PGlite, or a schema of its own on PostgreSQL. `upTo` stops
   * the migrations at that one (to test a later migration on rows written before it).
   */
  open(options?: { upTo?: string }): Promise<DatabaseHandle>;
}

/**
 * The backends storage and HTTP suites run on: always PGlite, and PostgreSQL too when `TEST_DATABASE_URL`
 * is set (CI sets it). Each `open()` gets its own schema, so suites run in parallel without sharing rows.
 */
export function testBackends(): TestBackend[] {
  const backends: TestBackend[] = [{ name: 'pglite', open: openMigrated }];
  const url = process.env.TEST_DATABASE_URL;
  if (url) backends.push({ name: 'postgres', open: (options) => openPostgresSchema(url, options?.upTo) });
  return backends;
}

async function openMigrated(options?: { upTo?: string }): Promise<DatabaseHandle> {
  const handle = await openDatabase({});
  await migrateTo(handle, options?.upTo);
  siblings.set(handle, async () => ({ ...handle, close: async () => {} }));
  return handle;
}

function migrateTo(handle: DatabaseHandle, upTo: string | undefined): Promise<void> {
  return upTo === undefined ? migrateToLatest(handle.db) : migrateUpTo(handle.db, upTo);
}

async function openPostgresSchema(url: string, upTo?: string): Promise<DatabaseHandle> {
  const schema = `test_${randomBytes(6).toString('hex')}`;
  await adminQuery(url, `create schema ${schema}`);
  const handle = await openDatabase({ url, searchPath: schema, poolSize: 5 });
  try {
    await migrateTo(handle, upTo);
  } catch (error) {
    // Seen about once in a thousand suites under full parallel load: the migration's first statement found the
    // schema just created on another connection missing. Made again (if need be) and migrated once more; a real
    // migration fault fails the second time too.
    if (!(error instanceof Error && /does not exist/.test(error.message))) throw error;
    await adminQuery(url, `create schema if not exists ${schema}`);
    await migrateTo(handle, upTo);
  }
  const opened = {
    ...handle,
    async close() {
      await handle.close();
      await adminQuery(url, `drop schema ${schema} cascade`);
    },
  };
  siblings.set(opened, () => openDatabase({ url, searchPath: schema, poolSize: 5 }));
  return opened;
}

/** One statement on its own connection (schemas made and dropped, rows loaded by the benchmarks). */
export async function adminQuery(url: string, text: string, values: unknown[] = []): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(text, values);
  } finally {
    await client.end();
  }
}
