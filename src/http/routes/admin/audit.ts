import { Readable } from 'node:stream';
import { AUDIT_ENDPOINTS, AUDIT_EXPORT_ENDPOINT } from '@partner-gateway/contract/admin-audit-endpoints';
import type { AuditQuery } from '@partner-gateway/contract/admin-audit';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { Gateway } from '../../../gateway.js';
import { routeOf } from './admin-route.js';

/** The audit trail, filtered and paged newest first (`cursor`), or followed oldest first (`after`). */
export async function adminAuditRoutes(untyped: FastifyInstance, { gateway }: { gateway: Gateway }): Promise<void> {
  const app = untyped.withTypeProvider<TypeBoxTypeProvider>();
  app.route({
    ...routeOf(AUDIT_ENDPOINTS.query),
    handler: async (request) => {
      const { details, followKey } = searchFilter(request.query);
      request.requestContext.audit.details = details;
      // A follow polls every second: its polls of one filter by one actor count into one entry a minute.
      if (followKey !== undefined) request.requestContext.audit.aggregate = { key: `${request.requestContext.actor?.id ?? ''}\u0000${followKey}`, windowMs: 60_000 };
      return gateway.admin.audit.search(request.query);
    },
  });
  app.route({
    ...routeOf(AUDIT_EXPORT_ENDPOINT),
    handler: async (request, reply) => {
      const query = request.query;
      const file = await gateway.admin.audit.export(query);
      const details = { from: query.from, to: query.to, format: query.format ?? 'jsonl', rows: 0 };
      request.requestContext.audit.details = details;
      return reply
        .type(file.contentType)
        .header('content-disposition', `attachment; filename="${file.filename}"`)
        .send(Readable.from(file.chunks((rows) => (details.rows += rows))));
    },
  });
}

/**
 * What the search's own entry keeps: the filter as asked, without the paging (a page of a search is the same
 * search); and for a follow's poll (`after`), what its polls share.
 */
function searchFilter(query: AuditQuery): { details: Record<string, unknown>; followKey?: string } {
  const { cursor: _cursor, after, limit: _limit, ...filter } = query;
  return { details: { filter }, ...(after !== undefined ? { followKey: JSON.stringify(filter) } : {}) };
}
