import { AUDIT_CSV_COLUMNS, type AuditExportQuery } from '@partner-gateway/contract/admin-audit';
import { csvCell } from '../csv/csv-cell.js';
import { errors } from '../errors.js';
import { toAuditEntryView, type StoredAuditEntry } from './audit-entry.js';
import type { AuditRepository } from './audit-repository.js';
import type { AuditWriter } from './audit-writer.js';

/** Entries read from the database at a time: the export holds one page, never the range. */
const EXPORT_PAGE = 1_000;

/** An export on its way: what to call it, and its text, produced page by page as the client reads it. */
export interface AuditExport {
  contentType: string;
  filename: string;
  /** The file's text in chunks; `onRows` hears how many entries each chunk carried (for the export's own audit entry). */
  chunks(onRows: (rows: number) => void): AsyncIterable<string>;
}

/**
 * The audit trail from `from` to `to` as JSON lines (one AuditEntryView each) or CSV (AUDIT_CSV_COLUMNS, details
 * as JSON text), oldest first. Streamed: the database is read a page at a time by keyset as the client takes the
 * text, so an export of millions of entries holds one page in memory. Entries still queued are written first.
 * In CSV, a cell that a spreadsheet would read as a formula (starting with =, +, -, @, a tab or a carriage
 * return, or with =, +, -, @ after leading whitespace: entries carry what clients sent, such as a claimed
 * login) is prefixed with an apostrophe.
 *
 * @example
 * ```ts
 * const file = await exportAudit(writer, repository, { from: '2026-01-01T00:00:00Z', to: '2026-02-01T00:00:00Z', format: 'csv' });
 * for await (const chunk of file.chunks(() => {})) process.stdout.write(chunk);
 * ```
 */
export async function exportAudit(writer: AuditWriter, repository: AuditRepository, query: AuditExportQuery): Promise<AuditExport> {
  const from = readBound('from', query.from);
  const to = readBound('to', query.to);
  if (from >= to) throw errors.validationFailed([{ field: 'to', message: 'must be later than from' }]);
  const format = query.format ?? 'jsonl';
  // Entries counted over a window (failed sign-on callbacks, a follow's searches) show once their window ends.
  await writer.flush({ held: false });
  const stamp = (date: Date) => date.toISOString().replace(/[:.]/g, '-');
  return {
    contentType: format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8',
    filename: `audit-${stamp(from)}-${stamp(to)}.${format}`,
    async *chunks(onRows) {
      if (format === 'csv') yield `${AUDIT_CSV_COLUMNS.join(',')}\r\n`;
      for await (const page of repository.range(from, to, EXPORT_PAGE)) {
        onRows(page.length);
        yield page.map(format === 'csv' ? csvLine : jsonLine).join('');
      }
    },
  };
}

function jsonLine(entry: StoredAuditEntry): string {
  return `${JSON.stringify(toAuditEntryView(entry))}\n`;
}

function csvLine(entry: StoredAuditEntry): string {
  const cells: Record<(typeof AUDIT_CSV_COLUMNS)[number], unknown> = {
    id: entry.id,
    at: entry.at.toISOString(),
    action: entry.action,
    outcome: entry.outcome,
    status: entry.status,
    partner: entry.partner,
    clientAddress: entry.clientAddress,
    reason: entry.reason,
    requestId: entry.requestId,
    count: entry.count,
    lastRequestId: entry.lastRequestId,
    operatorId: entry.operator?.id ?? null,
    operatorName: entry.operator?.name ?? null,
    operatorCredential: entry.operator?.credential ?? null,
    approverId: entry.approver?.id ?? null,
    approverName: entry.approver?.name ?? null,
    operatorIssuedThrough: entry.operator?.issuedThrough?.join(' ') ?? null,
    approverIssuedThrough: entry.approver?.issuedThrough?.join(' ') ?? null,
    details: entry.details === null ? null : JSON.stringify(entry.details),
  };
  return `${AUDIT_CSV_COLUMNS.map((column) => csvCell(cells[column])).join(',')}\r\n`;
}

function readBound(name: string, value: string): Date {
  const date = new Date(value);
  if (Number.isNaN(date.getTime()) || date.getUTCFullYear() < 1 || date.getUTCFullYear() > 9999) {
    throw errors.validationFailed([{ field: name, message: 'must be a date-time from 0001-01-01 to 9999-12-31, without a leap second' }]);
  }
  return date;
}
