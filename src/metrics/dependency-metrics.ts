import { Gauge, Histogram, type Registry } from 'prom-client';
import type { QueryOperation } from '../db/database.js';
import type { DependencyStates } from '../health/dependency-health.js';

/**
 * Database statements take from ~0.1 ms (PGlite, a primary key) to seconds (a bank list version under a row
 * lock, a statement near the 15 s timeout); Redis commands from ~0.1 ms to the 1 s command timeout.
 */
const DATABASE_BUCKETS = [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 15];
const REDIS_BUCKETS = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1];

/** The Redis commands the gateway sends, by name; any other (a handshake's, a future one) is counted as `other`. */
const REDIS_COMMANDS = new Set(['get', 'set', 'del', 'exists', 'expire', 'pexpire', 'incr', 'eval', 'evalsha', 'script', 'multi', 'exec', 'ping', 'info', 'mget', 'ttl', 'pttl', 'keys', 'scan', 'zrem', 'zadd', 'zrange', 'zremrangebyscore']);

export interface DependencyMetrics {
  /** One database statement ended (see DatabaseHandle.observeQueries). */
  observeDatabaseQuery(operation: QueryOperation, failed: boolean, seconds: number): void;
  /** One Redis command was answered or failed (see timeRedisCommands). */
  observeRedisCommand(command: string, failed: boolean, seconds: number): void;
}

/**
 * `partner_gateway_dependency_up{dependency}` (1 when the database, or Redis with REDIS_URL, answered a trivial
 * command within a second at scrape time; asked then, as `/readyz` asks) and the latency histograms of database
 * statements and Redis commands. Labels are the statement's kind, the command's name and the outcome: a few
 * values each, nothing of a statement's text or a key.
 */
export function registerDependencyMetrics(registry: Registry, check: () => Promise<DependencyStates>): DependencyMetrics {
  new Gauge({
    name: 'partner_gateway_dependency_up',
    help: 'Whether a dependency answered a trivial command within a second when scraped: 1 up, 0 down (database; redis with REDIS_URL).',
    labelNames: ['dependency'] as const,
    registers: [registry],
    async collect() {
      const states = await check();
      this.set({ dependency: 'database' }, states.database === 'up' ? 1 : 0);
      if (states.redis) this.set({ dependency: 'redis' }, states.redis === 'up' ? 1 : 0);
    },
  });
  const database = new Histogram({
    name: 'partner_gateway_database_query_duration_seconds',
    help: 'Time a database statement took, by statement (select, insert, update, delete, other) and outcome (ok, error).',
    labelNames: ['operation', 'outcome'] as const,
    buckets: DATABASE_BUCKETS,
    registers: [registry],
  });
  const redis = new Histogram({
    name: 'partner_gateway_redis_command_duration_seconds',
    help: 'Time a Redis command took until answered or failed, by command and outcome (ok, error).',
    labelNames: ['command', 'outcome'] as const,
    buckets: REDIS_BUCKETS,
    registers: [registry],
  });
  // The label children, looked up once per combination (prom-client hashes a label object on every observe).
  const children = new Map<string, { observe(value: number): void }>();
  const child = (key: string, make: () => { observe(value: number): void }) => {
    let found = children.get(key);
    if (!found) {
      found = make();
      children.set(key, found);
    }
    return found;
  };
  return {
    observeDatabaseQuery(operation, failed, seconds) {
      const outcome = failed ? 'error' : 'ok';
      child(`db ${operation} ${outcome}`, () => database.labels({ operation, outcome })).observe(seconds);
    },
    observeRedisCommand(name, failed, seconds) {
      const command = REDIS_COMMANDS.has(name) ? name : 'other';
      const outcome = failed ? 'error' : 'ok';
      child(`redis ${command} ${outcome}`, () => redis.labels({ command, outcome })).observe(seconds);
    },
  };
}
