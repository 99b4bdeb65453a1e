import { AuditPage, AuditQuery } from '@partner-gateway/contract/admin-audit';
import { ErrorBody } from '@partner-gateway/contract/error-body';
import { ADMIN_AUDIT_PATH } from '@partner-gateway/contract/paths';
import type { FastifyInstance } from 'fastify';
import { errors } from '../../../errors.js';
import type { Gateway } from '../../../gateway.js';

/** The audit trail, filtered and paged newest first (`cursor`), or followed oldest first (`after`). */
export async function adminAuditRoutes(app: FastifyInstance, { gateway }: { gateway: Gateway }): Promise<void> {
  app.get(
    ADMIN_AUDIT_PATH,
    { schema: { operationId: 'queryAudit', tags: ['Audit'], summary: 'The audit trail, filtered, newest first or followed', querystring: AuditQuery, response: { 200: AuditPage, '4xx': ErrorBody, '5xx': ErrorBody } } },
    async (request) => {
      const query = request.query as AuditQuery;
      const limit = query.limit === undefined ? 100 : Number(query.limit);
      if (limit < 1 || limit > 1000) throw errors.validationFailed([{ field: 'limit', message: 'must be between 1 and 1000' }]);
      const from = readDateTime('from', query.from);
      const to = readDateTime('to', query.to);
      // Entries still queued are written first, so that a change is visible as soon as its response is.
      await gateway.admin.audit.flush();
      const entries = await gateway.admin.audit.query({
        ...(query.partner !== undefined ? { partner: query.partner } : {}),
        ...(query.outcome !== undefined ? { outcome: query.outcome } : {}),
        ...(query.reason !== undefined ? { reason: query.reason } : {}),
        ...(query.action !== undefined ? { action: query.action } : {}),
        ...(from !== undefined ? { from } : {}),
        ...(to !== undefined ? { to } : {}),
        ...(query.cursor !== undefined ? { before: query.cursor } : {}),
        ...(query.after !== undefined ? { after: query.after } : {}),
        limit,
      });
      const nextCursor = query.after === undefined && entries.length === limit ? entries.at(-1)!.id : null;
      return { entries, nextCursor };
    },
  );
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
