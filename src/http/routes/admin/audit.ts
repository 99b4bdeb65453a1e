import { Readable } from 'node:stream';
import { AuditExportQuery, AuditPage, AuditQuery } from '@partner-gateway/contract/admin-audit';
import { ErrorBody } from '@partner-gateway/contract/error-body';
import { ADMIN_AUDIT_EXPORT_PATH, ADMIN_AUDIT_PATH } from '@partner-gateway/contract/paths';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { Gateway } from '../../../gateway.js';

/** The audit trail, filtered and paged newest first (`cursor`), or followed oldest first (`after`). */
export async function adminAuditRoutes(untyped: FastifyInstance, { gateway }: { gateway: Gateway }): Promise<void> {
  const app = untyped.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    ADMIN_AUDIT_PATH,
    {
      config: { audit: 'audit.search', permission: 'read' },
      schema: {
        operationId: 'queryAudit',
        tags: ['Audit'],
        summary: 'The audit trail, filtered, newest first or followed',
        description: 'The search is itself audited (action audit.search, with its filter; never what it found).',
        querystring: AuditQuery,
        response: { 200: AuditPage, '4xx': ErrorBody, '5xx': ErrorBody },
      },
    },
    async (request) => {
      const { details, followKey } = searchFilter(request.query);
      request.requestContext.audit.details = details;
      // A follow polls every second: its polls of one filter by one actor count into one entry a minute.
      if (followKey !== undefined) request.requestContext.audit.aggregate = { key: `${request.requestContext.actor?.id ?? ''}\u0000${followKey}`, windowMs: 60_000 };
      return gateway.admin.audit.search(request.query);
    },
  );
  // The file is a stream the schema cannot type (its 200 is a string in the document).
  app.get<{ Querystring: AuditExportQuery; Reply: Readable | ErrorBody }>(
    ADMIN_AUDIT_EXPORT_PATH,
    {
      config: { audit: 'audit.export', permission: 'audit.export' },
      schema: {
        operationId: 'exportAudit',
        tags: ['Audit'],
        summary: 'The audit trail from `from` to `to` as a file: JSON lines (one entry a line) or CSV, oldest first, streamed',
        description: 'Read from the database a page at a time as it is sent, whatever its size. The export is itself audited (action audit.export, with the range, format and rows).',
        querystring: AuditExportQuery,
        produces: ['application/x-ndjson', 'text/csv'],
        response: { 200: { description: 'The file (Content-Disposition names it)', type: 'string' }, '4xx': ErrorBody, '5xx': ErrorBody },
      },
    },
    async (request, reply) => {
      const query = request.query;
      const file = await gateway.admin.audit.export(query);
      const details = { from: query.from, to: query.to, format: query.format ?? 'jsonl', rows: 0 };
      request.requestContext.audit.details = details;
      return reply
        .type(file.contentType)
        .header('content-disposition', `attachment; filename="${file.filename}"`)
        .send(Readable.from(file.chunks((rows) => (details.rows += rows))));
    },
  );
}

/**
 * What the search's own entry keeps: the filter as asked, without the paging (a page of a search is the same
 * search); and for a follow's poll (`after`), what its polls share.
 */
function searchFilter(query: AuditQuery): { details: Record<string, unknown>; followKey?: string } {
  const { cursor: _cursor, after, limit: _limit, ...filter } = query;
  return { details: { filter }, ...(after !== undefined ? { followKey: JSON.stringify(filter) } : {}) };
}
