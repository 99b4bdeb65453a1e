import { resolve } from 'node:path';
import type { Config } from '../config.js';

/** Where the gateway keeps its data, as the start log and start problems name it: never a credential. */
export type DatabaseTarget = { kind: 'pglite'; dataDir: string } | { kind: 'postgres'; host: string; port: number; database: string };

/**
 * The database DATABASE_URL (else DATA_DIR) names, without user or password.
 *
 * @example
 * ```ts
 * databaseTarget(loadConfig({ DATABASE_URL: 'postgres://gw:secret@db.example/gateway', ... }));
 * // { kind: 'postgres', host: 'db.example', port: 5432, database: 'gateway' }
 * ```
 */
export function databaseTarget(config: Pick<Config, 'DATABASE_URL' | 'DATA_DIR'>): DatabaseTarget {
  if (config.DATABASE_URL === undefined) return { kind: 'pglite', dataDir: resolve(config.DATA_DIR) };
  const url = new URL(config.DATABASE_URL);
  // A Unix socket is given as ?host=/var/run/postgresql with an empty authority.
  const host = decodeURIComponent(url.hostname) || url.searchParams.get('host') || 'localhost';
  return { kind: 'postgres', host, port: Number(url.port || 5432), database: decodeURIComponent(url.pathname.slice(1)) || '(the user\'s)' };
}

/** `PostgreSQL at db.example:5432/gateway` or `the embedded PGlite database in /srv/gateway/data`. */
export function describeDatabase(target: DatabaseTarget): string {
  return target.kind === 'postgres' ? `PostgreSQL at ${target.host}:${target.port}/${target.database}` : `the embedded PGlite database in ${target.dataDir}`;
}

/** The setting to fix when the database cannot be used. */
export function databaseSetting(target: DatabaseTarget): 'DATABASE_URL' | 'DATA_DIR' {
  return target.kind === 'postgres' ? 'DATABASE_URL' : 'DATA_DIR';
}

/** REDIS_URL's host and port, without user or password: `redis.example:6379`. */
export function redisTarget(url: string): string {
  const parsed = new URL(url);
  return `${parsed.hostname || 'localhost'}:${parsed.port || 6379}`;
}
