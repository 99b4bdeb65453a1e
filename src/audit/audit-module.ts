import type { Kysely } from 'kysely';
import type { AuditExportQuery, AuditPage, AuditQuery } from '@partner-gateway/contract/admin-audit';
import { exportAudit, type AuditExport } from './audit-export.js';
import type { Config } from '../config.js';
import type { Database } from '../db/schema.js';
import type { GatewayEvents } from '../gateway-events.js';
import { createAuditRepository, type AuditRepository } from './audit-repository.js';
import { createAuditRetention, type RetentionReport } from './audit-retention.js';
import { searchAudit } from './audit-search.js';
import { createAuditWriter, type AuditWriter } from './audit-writer.js';
import { partnerActivity, type PartnerActivity } from './partner-activity.js';
import { createPartnerRequestLog, type PartnerRequestLog } from './partner-request-log.js';

/** How often partitions are made ahead and expired audit entries removed. */
const AUDIT_MAINTENANCE_MS = 15 * 60_000;

/** The audit trail, wired: the writer every audited call records into, its maintenance, and what operators read. */
export interface AuditModule {
  writer: AuditWriter;
  admin: {
    /** Writes the entries still queued, so that a change is visible as soon as its response is. */
    flush(): Promise<void>;
    query: AuditRepository['query'];
    /** The admin API's search: its query-string filters read, the queue flushed first, one page. */
    search(query: AuditQuery): Promise<AuditPage>;
    /** The trail from `from` to `to` as a JSON-lines or CSV file, read from the database as it is sent. */
    export(query: AuditExportQuery): Promise<AuditExport>;
    /** The last successful partner API call of each of the comma-separated logins (at most 100). */
    activity(logins: string): Promise<PartnerActivity[]>;
  };
  /** A partner's own calls and usage, for the self-service API (the partner's login only, never an operator's entries). */
  requestLog: PartnerRequestLog;
  /** One maintenance run now (partitions ahead, AUDIT_RETENTION_DAYS); it also runs every 15 minutes. */
  maintain(): Promise<RetentionReport>;
  /** The audit table as the last maintenance run saw it (for /metrics). */
  lastMaintenance(): RetentionReport | null;
  /** Stops maintenance and drains the writer, trying for up to `timeoutMs`. */
  close(timeoutMs?: number): Promise<void>;
}

/**
 * Builds the audit module over `db` and starts its maintenance. Write and maintenance failures go to `events`
 * (`audit_write_failed`, `audit_maintenance_failed`): entries not written stay queued.
 *
 * @example
 * ```ts
 * const audit = createAudit(handle.db, config, Date.now, events);
 * audit.writer.record({ at: new Date(), action: 'partner.update', ... });
 * ```
 */
export function createAudit(db: Kysely<Database>, config: Config, now: () => number, events: GatewayEvents): AuditModule {
  const repository = createAuditRepository(db);
  const writer = createAuditWriter(repository, { maxPending: config.AUDIT_QUEUE_MAX, onError: (error) => events({ type: 'audit_write_failed', error }) });
  const retention = createAuditRetention(db, { retentionDays: config.AUDIT_RETENTION_DAYS, now });
  retention.start(AUDIT_MAINTENANCE_MS, (error) => events({ type: 'audit_maintenance_failed', error }));
  return {
    writer,
    admin: {
      flush: () => writer.flush(),
      query: (filter) => repository.query(filter),
      search: (query) => searchAudit(writer, repository, query),
      export: (query) => exportAudit(writer, repository, query),
      activity: (logins) => partnerActivity(writer, repository, logins),
    },
    requestLog: createPartnerRequestLog(writer, repository, now),
    maintain: () => retention.run(),
    lastMaintenance: () => retention.last(),
    async close(timeoutMs) {
      await retention.stop();
      await writer.close(timeoutMs);
    },
  };
}
