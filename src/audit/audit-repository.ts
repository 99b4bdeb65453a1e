import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/schema.js';
import type { AuditEntry, StoredAuditEntry } from './audit-entry.js';

export interface AuditQuery {
  partner?: string;
  outcome?: 'success' | 'failure';
  reason?: string;
  action?: string;
  from?: Date;
  to?: Date;
  /** Newest first: entries with an id below this one. */
  before?: string;
  /** Oldest first: entries with an id above this one (for following the trail). */
  after?: string;
  limit: number;
}

/** The append-only audit table: inserts and reads, nothing else (the database refuses updates and deletes). */
export interface AuditRepository {
  append(entries: readonly AuditEntry[]): Promise<void>;
  query(query: AuditQuery): Promise<StoredAuditEntry[]>;
}

export function createAuditRepository(db: Kysely<Database>): AuditRepository {
  return {
    async append(entries) {
      if (entries.length === 0) return;
      // The whole batch travels as one JSON parameter: one serialization in Node instead of ten parameters
      // per row, which matters when every banks call is audited.
      const rows = JSON.stringify(
        entries.map((entry) => ({
          at: entry.at.toISOString(),
          action: entry.action,
          outcome: entry.outcome,
          status: entry.status,
          partner: entry.partner,
          client_address: entry.clientAddress,
          reason: entry.reason,
          request_id: entry.requestId,
          details: entry.details,
        })),
      );
      await sql`insert into audit_log (at, action, outcome, status, partner, client_address, reason, request_id, details)
        select at, action, outcome, status, partner, client_address, reason, request_id, details
        from jsonb_to_recordset(${rows}::jsonb) as entry(at timestamptz, action text, outcome text, status integer, partner text,
          client_address text, reason text, request_id text, details jsonb)`.execute(db);
    },
    async query(query) {
      let select = db.selectFrom('audit_log').selectAll();
      if (query.partner !== undefined) select = select.where('partner', '=', query.partner);
      if (query.outcome !== undefined) select = select.where('outcome', '=', query.outcome);
      if (query.reason !== undefined) select = select.where('reason', '=', query.reason);
      if (query.action !== undefined) select = select.where('action', '=', query.action);
      if (query.from !== undefined) select = select.where('at', '>=', query.from);
      if (query.to !== undefined) select = select.where('at', '<', query.to);
      if (query.before !== undefined) select = select.where('id', '<', query.before);
      if (query.after !== undefined) select = select.where('id', '>', query.after);
      const rows = await select.orderBy('id', query.after !== undefined ? 'asc' : 'desc').limit(query.limit).execute();
      return rows.map((row) => ({
        id: String(row.id),
        at: row.at,
        action: row.action,
        outcome: row.outcome,
        status: row.status,
        partner: row.partner,
        clientAddress: row.client_address,
        reason: row.reason,
        requestId: row.request_id,
        details: row.details,
      }));
    },
  };
}
