import { ActivityQuery, ActivityResponse } from '@partner-gateway/contract/admin-partners';
import { ErrorBody } from '@partner-gateway/contract/error-body';
import { ADMIN_PARTNER_ACTIVITY_PATH } from '@partner-gateway/contract/paths';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { Gateway } from '../../../gateway.js';

/**
 * The last successful partner API call (login, refresh, logout or banks) of each of a page of partners,
 * from the audit trail: what the console's partner list shows in one request instead of one per partner.
 */
export async function adminPartnerActivityRoutes(untyped: FastifyInstance, { gateway }: { gateway: Gateway }): Promise<void> {
  const app = untyped.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    ADMIN_PARTNER_ACTIVITY_PATH,
    { config: { permission: 'read' }, schema: { operationId: 'getPartnerActivity', tags: ['Partners'], summary: 'The last successful partner API call of each partner', querystring: ActivityQuery, response: { 200: ActivityResponse, '4xx': ErrorBody, '5xx': ErrorBody } } },
    async (request) => ({ partners: await gateway.admin.audit.activity(request.query.logins) }),
  );
}
