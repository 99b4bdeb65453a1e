import type { ReadinessReport } from '@partner-gateway/contract/public-api';
import { withTimeout } from '../async/with-timeout.js';

/** What the gateway depends on: the database always, Redis when REDIS_URL is set. */
export type Dependency = 'database' | 'redis';

export type DependencyStates = { database: 'up' | 'down'; redis?: 'up' | 'down' };

/** Each dependency's check: resolves when it answers a trivial command, rejects otherwise. */
export type DependencyChecks = { database: () => Promise<void>; redis?: (() => Promise<void>) | undefined };

/** How long a check waits for an answer: a probe or a scrape must not hang on a dependency that does not answer. */
export const CHECK_TIMEOUT_MS = 1_000;

/**
 * Asks every dependency at once, each within CHECK_TIMEOUT_MS, and says which answered. Used by `/readyz` and
 * by the `partner_gateway_dependency_up` gauge at scrape time, so that both say what is true now rather than
 * what the last request saw.
 *
 * @example
 * ```ts
 * await checkDependencies({ database: () => handle.ping(1_000), redis: () => stores.pingRedis?.() }); // { database: 'up', redis: 'down' }
 * ```
 */
export async function checkDependencies(checks: DependencyChecks): Promise<DependencyStates> {
  const stateOf = (check: () => Promise<void>) =>
    withTimeout(Promise.resolve().then(check), CHECK_TIMEOUT_MS, () => 'dependency check timed out').then(
      () => 'up' as const,
      () => 'down' as const,
    );
  const [database, redis] = await Promise.all([stateOf(checks.database), checks.redis ? stateOf(checks.redis) : undefined]);
  return redis === undefined ? { database } : { database, redis };
}

/**
 * The readiness answer: not ready without the database (nothing can be served); degraded without Redis, whose
 * every call falls back to the database (see createRedisStores), so the instance keeps serving.
 */
export function readinessOf(states: DependencyStates): ReadinessReport {
  const status = states.database === 'down' ? 'not_ready' : states.redis === 'down' ? 'degraded' : 'ready';
  return {
    status,
    dependencies: { database: { state: states.database }, ...(states.redis ? { redis: { state: states.redis } } : {}) },
  };
}
