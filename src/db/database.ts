import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { Kysely, PostgresDialect, sql, type LogEvent } from 'kysely';
import { PGliteDialect } from 'kysely-pglite-dialect';
import { withTimeout } from '../async/with-timeout.js';
import { createLocalChangeFeedBus, createPostgresChangeFeed, type ChangeFeed } from './change-feed.js';
import { copyShippedCluster } from './shipped-cluster.js';
import type { Database } from './schema.js';

export type DatabaseKind = 'pglite' | 'postgres';

/** The one database seam: PGlite or PostgreSQL behind the same Kysely interface. */
export interface DatabaseHandle {
  kind: DatabaseKind;
  db: Kysely<Database>;
  /** Resolves when the database answers a trivial query within `timeoutMs`, rejects otherwise. */
  ping(timeoutMs?: number): Promise<void>;
  /** How instances sharing this database tell each other about changes (on PGlite, the gateways of this process over it). */
  changeFeed(onError?: (error: unknown) => void): ChangeFeed;
  /** Connection pool figures, for the metrics (PostgreSQL only). */
  poolStats(): { total: number; idle: number; waiting: number } | undefined;
  /**
   * Tells `observer` of every query run through `db` once it has ended (its time, its kind, whether it failed);
   * returns the function that stops telling it. The latency histogram's source; nothing of the query's text or
   * parameters is passed on.
   */
  observeQueries(observer: QueryObserver): () => void;
  close(): Promise<void>;
}

/** A query's kind: its statement, `other` for raw SQL and anything else. */
export type QueryOperation = 'select' | 'insert' | 'update' | 'delete' | 'other';

export type QueryObserver = (operation: QueryOperation, failed: boolean, seconds: number) => void;

export interface DatabaseOptions {
  /** PostgreSQL connection string; when absent the embedded PGlite is used. */
  url?: string | undefined;
  /** Where PGlite keeps its files; `undefined` keeps it in memory (tests). */
  dataDir?: string | undefined;
  /**
   * PGlite only: a data directory dumped by `dumpPglite` or `backupPglite` to start from instead of an empty
   * cluster, in memory (tests load one migrated image per run) or in a `dataDir` that holds no database yet (a
   * restore); an existing database in `dataDir` is opened as it is.
   */
  image?: Blob | undefined;
  poolSize?: number;
  /** PostgreSQL only: the schema to work in (tests give each suite its own). */
  searchPath?: string;
  /** PostgreSQL only: how long one statement may take, default 15 s (the benchmarks load millions of rows at once). */
  queryTimeoutMs?: number;
}

/**
 * Opens the database the configuration names.
 *
 * @example
 * ```ts
 * const handle = await openDatabase({ url: process.env.DATABASE_URL, dataDir: './data' });
 * await handle.ping();
 * ```
 */
export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if (options.url) return openPostgres(options.url, options);
  return openPglite(options.dataDir, options.image);
}

/** The whole data directory of the in-memory PGlite behind `handle`, as a tar image for `image`. */
export async function dumpPglite(handle: DatabaseHandle): Promise<Blob> {
  const client = pgliteClients.get(handle.db)?.client;
  if (!client) throw new Error('not a PGlite handle');
  return client.dumpDataDir('none');
}

/**
 * A consistent copy of the embedded database's whole data directory, gzipped, taken while it serves: the
 * checkpoint and the copy run in one transaction slot of PGlite, so every other statement waits for them (the
 * short pause docs/operations-database.md states) and the copy holds every commit made before it and none after.
 * Undefined on PostgreSQL, whose backups are pg_dump's.
 */
export async function backupPglite(handle: DatabaseHandle): Promise<Blob | undefined> {
  const embedded = pgliteClients.get(handle.db);
  if (!embedded) return undefined;
  const { client, directory } = embedded;
  return client.transaction(async (transaction) => {
    await transaction.exec('checkpoint');
    // On disk (DATA_DIR), the files are read without holding the serving thread; in memory, PGlite packs them.
    // The tar writer is loaded by the first backup, not by every start.
    return directory === undefined ? client.dumpDataDir('gzip') : (await import('./pack-data-dir.js')).packDataDir(directory);
  });
}

const soleWriters = new WeakSet<Kysely<Database>>();
/** The PGlite behind a handle, and its data directory on disk when it has one (DATA_DIR; none in memory). */
const pgliteClients = new WeakMap<Kysely<Database>, { client: PGlite; directory: string | undefined }>();

/**
 * True when nothing but this process writes through `db`: PGlite, which one process alone may open (the data
 * directory's lock, src/bootstrap/data-dir-lock.ts; in memory, nobody else can reach it). Stores may then keep
 * what they write in memory, shared by every store object over the same `db` (all gateways of this process
 * on that database), instead of reading it back; never on PostgreSQL, where other instances write too.
 */
export function isSoleWriter(db: Kysely<Database>): boolean {
  return soleWriters.has(db);
}

/**
 * PGlite's own start parameters (its defaults) with a 16 MB buffer cache instead of the 128 MB initdb writes
 * into postgresql.conf: inside WASM the cache is part of the process's resident memory, and the gateway's
 * working set (partners, keys, the audit log's tail) is a fraction of it. Measured in docs/performance.md.
 */
const PGLITE_START = [...PGlite.defaultStartParams, '-c', 'shared_buffers=16MB'];

async function openPglite(dataDir: string | undefined, image: Blob | undefined): Promise<DatabaseHandle> {
  let client: PGlite;
  const directory = dataDir === undefined ? undefined : join(dataDir, 'pglite');
  if (directory === undefined) {
    client = image ? new PGlite({ loadDataDir: image, startParams: PGLITE_START }) : new PGlite({ startParams: PGLITE_START });
  } else {
    mkdirSync(directory, { recursive: true });
    // A new directory starts from the image when one is given (a restore), else from a copy of the cluster the
    // build made and migrated (or PGlite's own initdb when there is none: sources run without a build).
    const isNew = !existsSync(join(directory, 'PG_VERSION'));
    if (isNew && image === undefined) copyShippedCluster(directory);
    const load = isNew && image !== undefined ? { loadDataDir: image } : {};
    client = new PGlite(directory, { startParams: PGLITE_START, ...load });
  }
  await client.waitReady;
  const observers = queryObservers();
  const db = new Kysely<Database>({ dialect: new PGliteDialect(client), log: observers.log });
  soleWriters.add(db);
  pgliteClients.set(db, { client, directory });
  const bus = createLocalChangeFeedBus();
  return {
    kind: 'pglite',
    db,
    ping: (timeoutMs) => ping(db, timeoutMs),
    changeFeed: () => bus.feed(),
    poolStats: () => undefined,
    observeQueries: observers.add,
    close: () => db.destroy(),
  };
}

async function openPostgres(url: string, options: DatabaseOptions): Promise<DatabaseHandle> {
  // Loaded here, not at the top: a gateway on the embedded database never loads `pg` (~3 MB of heap).
  const { default: pg } = await import('pg');
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    // Bounded waits: a request that needs the database fails within seconds when it is down, never hangs.
    connectionTimeoutMillis: 5_000,
    query_timeout: options.queryTimeoutMs ?? 15_000,
    idleTimeoutMillis: 30_000,
    ...(options.searchPath ? { options: `-c search_path=${options.searchPath}` } : {}),
  });
  // An idle client losing its server emits 'error' on the pool; without a listener it would crash the process.
  pool.on('error', () => {});
  // A checked-out client has no pool listener: when its server ends the session between two statements (a
  // transaction's, on a fast shutdown), its 'error' would crash the process. The statement in flight or the
  // next one fails instead, and the pool drops the client when it is released.
  pool.on('connect', (client) => {
    client.on('error', () => {});
  });
  const observers = queryObservers();
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }), log: observers.log });
  return {
    kind: 'postgres',
    db,
    ping: (timeoutMs) => ping(db, timeoutMs),
    changeFeed: (onError) =>
      createPostgresChangeFeed(url, { ...(options.searchPath ? { searchPath: options.searchPath } : {}), ...(onError ? { onError } : {}) }),
    poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    observeQueries: observers.add,
    close: () => db.destroy(),
  };
}

async function ping(db: Kysely<Database>, timeoutMs = 2_000): Promise<void> {
  await withTimeout(sql`select 1`.execute(db), timeoutMs, () => 'database ping timed out');
}

const OPERATIONS: Record<string, QueryOperation> = { SelectQueryNode: 'select', InsertQueryNode: 'insert', UpdateQueryNode: 'update', DeleteQueryNode: 'delete' };

/**
 * Kysely's `log` hook, which times every query of the connection (queries and transactions alike) at no cost
 * beyond two clock reads, and the observers it tells. Kept per Kysely instance: the gateways of a process over
 * one embedded database each add their own.
 */
function queryObservers(): { log: (event: LogEvent) => void; add: (observer: QueryObserver) => () => void } {
  const observers = new Set<QueryObserver>();
  return {
    log(event) {
      if (observers.size === 0) return;
      const operation = OPERATIONS[event.query.query.kind] ?? 'other';
      const seconds = event.queryDurationMillis / 1000;
      for (const observer of observers) observer(operation, event.level === 'error', seconds);
    },
    add(observer) {
      observers.add(observer);
      return () => observers.delete(observer);
    },
  };
}
