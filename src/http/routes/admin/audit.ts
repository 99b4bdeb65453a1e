import { AuditPage, AuditQuery } from '@partner-gateway/contract/admin-audit';
import { ErrorBody } from '@partner-gateway/contract/error-body';
import { ADMIN_AUDIT_PATH } from '@partner-gateway/contract/paths';
import type { FastifyInstance } from 'fastify';
import type { Gateway } from '../../../gateway.js';

/** The audit trail, filtered and paged newest first (`cursor`), or followed oldest first (`after`). */
export async function adminAuditRoutes(app: FastifyInstance, { gateway }: { gateway: Gateway }): Promise<void> {
  app.get(
    ADMIN_AUDIT_PATH,
    { schema: { operationId: 'queryAudit', tags: ['Audit'], summary: 'The audit trail, filtered, newest first or followed', querystring: AuditQuery, response: { 200: AuditPage, '4xx': ErrorBody, '5xx': ErrorBody } } },
    async (request) => gateway.admin.audit.search(request.query as AuditQuery),
  );
}
