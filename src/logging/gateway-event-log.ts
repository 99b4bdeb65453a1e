import type { Logger } from 'pino';
import { AuditEntryDroppedError } from '../audit/audit-writer.js';
import type { GatewayEvent, GatewayEvents } from '../gateway-events.js';
import { createLogGate } from './log-gate.js';

/** How each gateway event is logged: its level, its message, and whether it may repeat at most every ten seconds. */
const EVENT_LINES: { [Type in GatewayEvent['type']]: { level: 'warn' | 'error'; message: string; everyTenSeconds?: true } } = {
  audit_write_failed: { level: 'warn', message: 'audit entries not written yet; they stay queued', everyTenSeconds: true },
  audit_maintenance_failed: { level: 'warn', message: 'audit maintenance (partitions, retention) failed; retried at the next run' },
  redis_failed: { level: 'warn', message: 'Redis unavailable; using the database', everyTenSeconds: true },
  change_feed_failed: { level: 'warn', message: 'change feed between instances lost its connection; reconnecting', everyTenSeconds: true },
  replay_conflict: { level: 'error', message: 'JWEs accepted twice across a Redis failover' },
  replay_journal_dropped: { level: 'error', message: 'replay journal entries the database cannot hold were dropped' },
  replay_write_failed: { level: 'warn', message: 'replay cache: writing the table behind failed; retried', everyTenSeconds: true },
  replay_state_lost: {
    level: 'error',
    message: 'replay state lost: encrypted passwords, client assertions and DPoP proofs issued before lostAt are refused (reason replay_state_lost)',
  },
  replay_state_check_failed: { level: 'warn', message: 'replay state not checked; checked again at the next claim', everyTenSeconds: true },
  lockout_write_failed: { level: 'error', message: 'a lockout set in Redis was not written to the database: a Redis restart would forget it', everyTenSeconds: true },
  operator_usage_write_failed: { level: 'warn', message: "operators' last-use times not written yet; retried", everyTenSeconds: true },
  close_failed: { level: 'error', message: 'shutdown: replay journal not fully written' },
  webhook_dispatch_failed: { level: 'error', message: 'webhook dispatch failed; due deliveries stay queued for the next pass', everyTenSeconds: true },
  bank_sync_failed: { level: 'error', message: 'bank registry sync failed; the list is unchanged and keeps being served' },
  participants_sync_failed: { level: 'error', message: 'participant list sync failed; member ids are unchanged and the list keeps being served' },
};

/**
 * The gateway's events as log lines (EVENT_LINES). An audit entry the database refused for its data is dropped:
 * each is logged at error level, as it is rare and loses a record. Failures the gateway survives by itself (a
 * batch that stays queued, Redis or the change feed away, the replay cache's table written late) are logged at
 * most once every ten seconds per kind, so that an outage does not flood the log.
 *
 * @example
 * ```ts
 * const gateway = await createGateway(config, handle, { masterKey, events: logGatewayEvents(logger, () => gateway.runtime.auditTrail.pending()) });
 * ```
 */
export function logGatewayEvents(logger: Pick<Logger, 'warn' | 'error'>, auditPending: () => number, now: () => number = Date.now): GatewayEvents {
  const mayLog = createLogGate(10_000, now);
  return (event) => {
    if (event.type === 'audit_write_failed' && event.error instanceof AuditEntryDroppedError) {
      logger.error({ err: event.error }, 'audit entry dropped: the database refused its data');
      return;
    }
    const line = EVENT_LINES[event.type];
    if (line.everyTenSeconds && !mayLog(event.type)) return;
    const fields =
      'jtis' in event
        ? { count: event.jtis.length }
        : 'count' in event
          ? { count: event.count }
          : 'problem' in event
            ? { source: event.source, problem: event.problem }
            : 'lostAt' in event
              ? { scope: event.scope, lostAt: new Date(event.lostAt).toISOString(), refusedUntil: new Date(event.refusedUntil).toISOString() }
              : { err: event.error, ...(event.type === 'audit_write_failed' ? { pending: auditPending() } : {}) };
    logger[line.level](fields, line.message);
  };
}
