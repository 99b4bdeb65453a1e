import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';
import { dumpPglite, openDatabase, type DatabaseHandle, type DatabaseKind } from '../../src/db/database.js';
import { migrateToLatest, migrateUpTo } from '../../src/db/migrate.js';
import { projectFile } from '../../src/project-root.js';
import { waitFor } from './wait-for.js';

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
   * A fresh, migrated, empty database: in-memory PGlite loaded from the run's migrated image, or a database of
   * its own on PostgreSQL copied from the migrated template. `upTo` migrates from scratch instead and stops at
   * that migration (to test a later migration on rows written before it): an in-memory PGlite, or a schema of
   * its own on PostgreSQL.
   */
  open(options?: { upTo?: string }): Promise<DatabaseHandle>;
}

/**
 * The backends storage and HTTP suites run on: always PGlite, and PostgreSQL too when `TEST_DATABASE_URL`
 * is set (CI sets it). Each `open()` gets its own database (or schema), so suites run in parallel without
 * sharing rows.
 */
export function testBackends(): TestBackend[] {
  const backends: TestBackend[] = [{ name: 'pglite', open: openMigrated }];
  const url = process.env.TEST_DATABASE_URL;
  if (url) backends.push({ name: 'postgres', open: (options) => (options?.upTo === undefined ? openPostgresCopy(url) : openPostgresSchema(url, options.upTo)) });
  return backends;
}

async function openMigrated(options?: { upTo?: string }): Promise<DatabaseHandle> {
  let handle: DatabaseHandle;
  if (options?.upTo === undefined) {
    handle = await openDatabase({ image: await migratedPgliteImage() });
  } else {
    handle = await openDatabase({});
    await migrateTo(handle, options.upTo);
  }
  siblings.set(handle, async () => ({ ...handle, close: async () => {} }));
  return handle;
}

/**
 * What a migrated database is made of, as a name part: the UTC day (migration 0004 makes PostgreSQL's audit
 * partitions for the day it runs and the week ahead, so yesterday's template would lack today's) and a hash of
 * the migrations, the code that runs them and PGlite's version. A changed migration gets a new image and template.
 */
function migratedKey(): string {
  const hash = createHash('sha256');
  const folder = projectFile('src/db/migrations');
  for (const name of readdirSync(folder).sort()) hash.update(`${name}\0`).update(readFileSync(join(folder, name))).update('\0');
  for (const file of ['src/db/migrate.ts', 'src/db/audit-partitions.ts', 'node_modules/@electric-sql/pglite/package.json']) {
    hash.update(`${file}\0`).update(readFileSync(projectFile(file))).update('\0');
  }
  return `${new Date().toISOString().slice(0, 10).replaceAll('-', '')}_${hash.digest('hex').slice(0, 12)}`;
}

let pgliteImage: Promise<Blob> | undefined;

/**
 * The data directory of a PGlite migrated to the latest migration: migrating costs seconds a database, loading
 * an image a fraction of that. Made once per key and kept under node_modules/.cache for every test process of
 * the run (and later runs); read once per process. Processes that find it missing at the same moment each make
 * it and the last rename wins: a few redundant migrations on a cold cache, and no lock that a killed run could
 * leave behind.
 */
function migratedPgliteImage(): Promise<Blob> {
  pgliteImage ??= (async () => {
    const folder = projectFile('node_modules/.cache/partner-gateway-tests');
    const file = join(folder, `pglite-${migratedKey()}.tar`);
    try {
      return new Blob([readFileSync(file)]);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    const handle = await openDatabase({});
    let image: Blob;
    try {
      await migrateToLatest(handle.db);
      image = await dumpPglite(handle);
    } finally {
      await handle.close();
    }
    mkdirSync(folder, { recursive: true });
    const partial = `${file}.${process.pid}-${randomBytes(4).toString('hex')}`;
    writeFileSync(partial, Buffer.from(await image.arrayBuffer()));
    renameSync(partial, file);
    // Images of other keys (earlier days, changed migrations) are never read again.
    for (const name of readdirSync(folder)) if (/^pglite-.*\.tar$/.test(name) && join(folder, name) !== file) rmSync(join(folder, name), { force: true });
    return image;
  })();
  return pgliteImage;
}

let postgresTemplate: Promise<string> | undefined;

/**
 * A database migrated to the latest migration, for `create database ... template` (a file copy on the server,
 * a fraction of a second, where migrating takes one or more). Shared by every process of the run and later runs
 * on the same server with the same key. Made under a name of its own and renamed into place: of two processes
 * making it at once, the one whose rename fails drops its copy.
 */
function migratedTemplate(url: string): Promise<string> {
  postgresTemplate ??= (async () => {
    const name = `gateway_template_${migratedKey()}`;
    if (await databaseExists(url, name)) return name;
    const building = `${name}_${randomBytes(4).toString('hex')}`;
    await adminQuery(url, `create database ${building}`);
    const handle = await openDatabase({ url: databaseUrl(url, building), poolSize: 1 });
    try {
      await migrateToLatest(handle.db);
    } finally {
      await handle.close();
    }
    try {
      // The server may not yet have ended the session the pool just closed.
      await whileInUse(() => adminQuery(url, `alter database ${building} rename to ${name}`));
    } catch (error) {
      if ((error as { code?: string }).code !== '42P04') throw error;
      await adminQuery(url, `drop database ${building} with (force)`);
    }
    return name;
  })();
  return postgresTemplate;
}

async function databaseExists(url: string, name: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query('select 1 from pg_database where datname = $1', [name])).rowCount === 1;
  } finally {
    await client.end();
  }
}

/** `statement`, tried again while it fails because a database is still in use (55006: a session ending). */
async function whileInUse(statement: () => Promise<void>): Promise<void> {
  let failure: unknown;
  await waitFor(
    async () => {
      try {
        await statement();
        return true;
      } catch (error) {
        if ((error as { code?: string }).code !== '55006') {
          failure = error;
          return true;
        }
        throw error;
      }
    },
    { message: 'a database no longer in use' },
  );
  if (failure) throw failure;
}

function databaseUrl(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.href;
}

/** A fresh database of its own, copied from the migrated template, dropped on close. */
async function openPostgresCopy(url: string): Promise<DatabaseHandle> {
  const template = await migratedTemplate(url);
  const database = `test_${randomBytes(6).toString('hex')}`;
  // Another process's template build may still hold a session on it for a moment (the same race as above).
  await whileInUse(() => adminQuery(url, `create database ${database} template ${template}`));
  const ownUrl = databaseUrl(url, database);
  const handle = await openDatabase({ url: ownUrl, poolSize: 5 });
  const opened = {
    ...handle,
    async close() {
      await handle.close();
      await adminQuery(url, `drop database ${database} with (force)`);
    },
  };
  siblings.set(opened, () => openDatabase({ url: ownUrl, poolSize: 5 }));
  return opened;
}

async function migrateTo(handle: DatabaseHandle, upTo: string | undefined): Promise<void> {
  await (upTo === undefined ? migrateToLatest(handle.db) : migrateUpTo(handle.db, upTo));
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
