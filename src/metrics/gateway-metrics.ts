import { Counter, Gauge, Registry, collectDefaultMetrics } from 'prom-client';
import type { AuthFailureReason } from '@partner-gateway/contract/audit-names';
import { registerBankSyncGauges, type BankSyncFigures } from './bank-sync-gauges.js';
import { registerCertificateExpiryGauge, registerCredentialEndGauge } from './certificate-expiry-gauge.js';
import { registerDependencyMetrics, type DependencyMetrics } from './dependency-metrics.js';
import { registerRequestMetrics, registerTokenRequestCounter } from './request-metrics.js';
import type { DependencyStates } from '../health/dependency-health.js';
import { registerWebhookMetrics, type WebhookFigures } from './webhook-metrics.js';

/** Lookups a cache answered from memory (`hits`) or had to pass on (`misses`) since the process started. */
export interface CacheStats {
  hits: number;
  misses: number;
}

/** Where the figures read at scrape time come from; each is a cheap read of a counter the component keeps. */
export interface MetricSources {
  /** One entry per cache, by the name it gets in the `cache` label. */
  caches: Record<string, () => CacheStats>;
  /** PostgreSQL pool figures; `undefined` on the embedded PGlite, which has no pool. */
  pool: () => { total: number; idle: number; waiting: number } | undefined;
  auditPending: () => number;
  auditDropped: () => number;
  /** The audit table as the last maintenance run saw it; undefined before the first run. */
  auditTable?: () => { oldestAt: Date | null; partitions: number } | undefined;
  /** JWEs found accepted twice across a Redis failover (0 without Redis). */
  replayConflicts: () => number;
  /** Replay journal entries dropped because the database could not hold them. */
  replayJournalDropped?: () => number;
  argon2: () => { verifications: number; running: number; waiting: number };
  /** Registered partner certificates expiring within 30 days (mutual TLS; see certificate-expiry-gauge.ts). */
  expiringCertificates?: () => Promise<number>;
  /** Partner credentials of each kind that stop working within 7 days (see registerCredentialEndGauge). */
  endingCredentials?: () => Promise<Record<string, number>>;
  /** The bank registry sync's last runs and held run (see bank-sync-gauges.ts). */
  bankSync?: () => Promise<BankSyncFigures>;
  /** The database's and Redis's states, asked at scrape time (see checkDependencies); the database alone, up, when absent. */
  dependencies?: () => Promise<DependencyStates>;
  /** Webhook deliveries and disabled endpoints (see webhook-metrics.ts). */
  webhooks?: () => WebhookFigures;
}

/** Which listener served a request: the partners' API or the operators' admin API. */
export type Listener = 'public' | 'admin';

export interface GatewayMetrics extends DependencyMetrics {
  /** The Prometheus text `GET /metrics` serves: this gateway's metrics and the process's. */
  render(): Promise<string>;
  /** Its Content-Type (the Prometheus text format, version 0.0.4). */
  contentType: string;
  /** Records one answered request: `route` is the route's template (never the raw URL, which may carry secrets). */
  observeRequest(listener: Listener, method: string, route: string, status: number, seconds: number): void;
  countAuthFailure(listener: Listener, reason: AuthFailureReason): void;
  /** Counts one OAuth token request by client authentication method and outcome (issued or refused). */
  countTokenRequest(method: string, outcome: 'issued' | 'refused'): void;
}

let processRegistry: Registry | undefined;

/**
 * Node's process metrics (event-loop lag, heap, GC, RSS...), collected once per process however many gateways
 * it builds: their collectors (an event-loop delay monitor among them) are never stopped.
 */
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

/**
 * Request latencies of this gateway sit between ~1 ms (bearer banks from memory) and ~100 ms (login, one
 * argon2 verification under load); the buckets resolve that range and show the 5 s database timeouts.
 */
const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/**
 * The gateway's Prometheus metrics, every name prefixed `partner_gateway_`, plus Node's process metrics
 * (`nodejs_eventloop_lag_seconds`, heap, GC, ...). Counters kept by the components themselves (cache hits,
 * argon2 verifications) are read when scraped, so the request path pays nothing for them.
 *
 * @example
 * ```ts
 * const metrics = createGatewayMetrics({ caches: { partners: () => cache }, pool: () => handle.poolStats(), auditPending: () => audit.pending(), auditDropped: () => audit.dropped(), argon2: () => verifier.stats() });
 * metrics.observeRequest('public', 'POST', '/api/v1/banks/', 200, 0.002);
 * const text = await metrics.render();
 * ```
 */
export function createGatewayMetrics(sources: MetricSources): GatewayMetrics {
  // One registry per gateway, so that several gateways in one process (tests) never mix their counters.
  const registry = new Registry();

  // Counted in plain numbers per request, handed to the registry when scraped; the grants beside them (request-metrics.ts).
  const observeRequest = registerRequestMetrics(registry, LATENCY_BUCKETS);
  const authFailures = new Counter({
    name: 'partner_gateway_auth_failures_total',
    help: 'Refused authentications, by listener and reason (the reason codes of the request log).',
    labelNames: ['listener', 'reason'] as const,
    registers: [registry],
  });

  const countTokenRequest = registerTokenRequestCounter(registry);

  new Counter({
    name: 'partner_gateway_cache_lookups_total',
    help: 'Cache lookups since the process started, by cache and result (hit or miss).',
    labelNames: ['cache', 'result'] as const,
    registers: [registry],
    collect() {
      this.reset();
      for (const [cache, read] of Object.entries(sources.caches)) {
        const { hits, misses } = read();
        this.inc({ cache, result: 'hit' }, hits);
        this.inc({ cache, result: 'miss' }, misses);
      }
    },
  });
  new Gauge({
    name: 'partner_gateway_cache_hit_ratio',
    help: 'Share of cache lookups answered from memory since the process started (0 before any lookup).',
    labelNames: ['cache'] as const,
    registers: [registry],
    collect() {
      for (const [cache, read] of Object.entries(sources.caches)) {
        const { hits, misses } = read();
        this.set({ cache }, hits + misses === 0 ? 0 : hits / (hits + misses));
      }
    },
  });
  new Gauge({
    name: 'partner_gateway_db_pool_connections',
    help: 'PostgreSQL pool connections by state: total open, idle, and requests waiting for one (absent on PGlite).',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      this.reset();
      const pool = sources.pool();
      if (!pool) return;
      this.set({ state: 'total' }, pool.total);
      this.set({ state: 'idle' }, pool.idle);
      this.set({ state: 'waiting' }, pool.waiting);
    },
  });
  new Gauge({
    name: 'partner_gateway_audit_pending_entries',
    help: 'Audit entries accepted but not yet written to the database (grows while the database is down).',
    registers: [registry],
    collect() {
      this.set(sources.auditPending());
    },
  });
  new Gauge({
    name: 'partner_gateway_audit_oldest_entry_age_seconds',
    help: 'Age of the oldest audit entry (as of the last maintenance run; 0 when the trail is empty): stays under AUDIT_RETENTION_DAYS plus a day.',
    registers: [registry],
    collect() {
      const table = sources.auditTable?.();
      this.set(table?.oldestAt ? Math.max(0, (Date.now() - table.oldestAt.getTime()) / 1000) : 0);
    },
  });
  new Gauge({
    name: 'partner_gateway_audit_partitions',
    help: 'Day partitions of the audit table, made ahead and dropped past retention (PostgreSQL; 0 on PGlite).',
    registers: [registry],
    collect() {
      this.set(sources.auditTable?.()?.partitions ?? 0);
    },
  });
  /** A counter the component keeps itself, read when scraped. */
  const countedBy = (name: string, help: string, read: () => number) =>
    new Counter({
      name,
      help,
      registers: [registry],
      collect() {
        this.reset();
        this.inc(read());
      },
    });
  countedBy('partner_gateway_audit_dropped_entries_total', 'Audit entries the database refused for their data and that were dropped (each is also logged).', sources.auditDropped);
  countedBy('partner_gateway_jwe_replay_conflicts_total', 'JWEs found accepted twice across a Redis failover (should stay 0; each is also logged).', sources.replayConflicts);
  countedBy('partner_gateway_replay_journal_dropped_total', 'Replay journal entries dropped because the database could not hold them (each is also logged).', sources.replayJournalDropped ?? (() => 0));
  countedBy(
    'partner_gateway_argon2_verifications_total',
    'argon2id password verifications run (logins, and encrypted-password calls not remembered).',
    () => sources.argon2().verifications,
  );
  new Gauge({
    name: 'partner_gateway_argon2_queue',
    help: 'argon2 verifications running and waiting for a slot (beyond ARGON2_QUEUE waiting, calls get 503).',
    labelNames: ['state'] as const,
    registers: [registry],
    collect() {
      const { running, waiting } = sources.argon2();
      this.set({ state: 'running' }, running);
      this.set({ state: 'waiting' }, waiting);
    },
  });

  if (sources.expiringCertificates) registerCertificateExpiryGauge(registry, sources.expiringCertificates);
  if (sources.endingCredentials) registerCredentialEndGauge(registry, sources.endingCredentials);
  if (sources.bankSync) registerBankSyncGauges(registry, sources.bankSync, Date.now);
  const dependencies = registerDependencyMetrics(registry, sources.dependencies ?? (async () => ({ database: 'up' })));
  if (sources.webhooks) registerWebhookMetrics(registry, sources.webhooks);

  return {
    ...dependencies,
    contentType: registry.contentType,
    render: () => Registry.merge([processMetrics(), registry]).metrics(),
    observeRequest,
    countAuthFailure(listener, reason) {
      authFailures.inc({ listener, reason });
    },
    countTokenRequest,
  };
}
