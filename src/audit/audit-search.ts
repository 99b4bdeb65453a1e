import { errors } from '../errors.js';
import { AUDIT_COUNT_LIMIT, AUDIT_PAGE_MAX, type AuditPage, type AuditQuery } from '@partner-gateway/contract/admin-audit';
import { toAuditEntryView } from './audit-entry.js';
import type { AuditQuery as AuditFilter, AuditRepository } from './audit-repository.js';
import type { AuditWriter } from './audit-writer.js';

/** The audit search as the admin API takes it (the contract's query): strings from the query string, checked here. */
export type AuditSearchInput = AuditQuery;

/**
 * One page of the audit trail, newest first (or oldest first after an id). Entries still queued are written
 * first, so that a call or change is visible as soon as its response is.
 *
 * @example
 * ```ts
 * const page = await searchAudit(gateway.audit, gateway.auditLog, { partner: 'acme', outcome: 'failure', limit: '50' });
 * const older = await searchAudit(gateway.audit, gateway.auditLog, { partner: 'acme', outcome: 'failure', cursor: page.nextCursor! });
 * ```
 */
export async function searchAudit(writer: AuditWriter, repository: AuditRepository, input: AuditSearchInput): Promise<AuditPage> {
  const limit = input.limit === undefined ? 100 : Number(input.limit);
  if (!(limit >= 1 && limit <= AUDIT_PAGE_MAX)) throw errors.validationFailed([{ field: 'limit', message: `must be between 1 and ${AUDIT_PAGE_MAX}` }]);
  const from = readDateTime('from', input.from);
  const to = readDateTime('to', input.to);
  const query: AuditFilter = {
    ...(input.partner !== undefined ? { partner: input.partner } : {}),
    ...(input.outcome !== undefined ? { outcome: input.outcome } : {}),
    ...(input.reason !== undefined ? { reason: input.reason } : {}),
    ...(input.action !== undefined ? { action: input.action } : {}),
    ...(input.operator !== undefined ? { operator: input.operator } : {}),
    ...(input.requestId !== undefined ? { requestId: input.requestId } : {}),
    ...(from !== undefined ? { from } : {}),
    ...(to !== undefined ? { to } : {}),
    ...(input.cursor !== undefined ? { before: input.cursor } : {}),
    ...(input.after !== undefined ? { after: input.after } : {}),
    limit,
  };
  // Entries counted over a window (failed sign-on callbacks, a follow's searches) show once their window ends.
  await writer.flush({ held: false });
  const { before: _before, after: _after, limit: _limit, ...filters } = query;
  const [entries, total] = await Promise.all([repository.query(query), repository.count(filters, AUDIT_COUNT_LIMIT)]);
  const nextCursor = input.after === undefined && entries.length === limit ? entries.at(-1)!.id : null;
  return { entries: entries.map(toAuditEntryView), nextCursor, total };
}

/**
 * `format: date-time` accepts a leap second (`23:59:60`), which `new Date` cannot read: left as an Invalid
 * Date it failed the query with a 500. It also accepts year 0000, and an offset can carry 9999-12-31 into
 * year 10000; PGlite cannot read such a bound (real PostgreSQL can). Both are refused as the schema refuses
 * any other bad date-time.
 */
function readDateTime(name: string, value: string | undefined): Date | undefined {
  if (value === undefined) return undefined;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) {
    throw errors.validationFailed([{ field: name, message: 'must be a date-time without a leap second (23:59:60)' }]);
  }
  if (date < EARLIEST || date >= AFTER_LATEST) {
    throw errors.validationFailed([{ field: name, message: 'must be from 0001-01-01 to 9999-12-31 in UTC' }]);
  }
  return date;
}

const EARLIEST = new Date('0001-01-01T00:00:00Z');
const AFTER_LATEST = new Date('+010000-01-01T00:00:00Z');
