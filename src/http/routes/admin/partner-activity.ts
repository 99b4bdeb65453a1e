import { PARTNER_ENDPOINTS } from '@partner-gateway/contract/admin-partner-endpoints';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { Gateway } from '../../../gateway.js';
import { routeOf } from './admin-route.js';

/**
 * The last successful partner API call (login, refresh, logout or banks) of each of a page of partners,
 * from the audit trail: what the console's partner list shows in one request instead of one per partner.
 */
export async function adminPartnerActivityRoutes(untyped: FastifyInstance, { gateway }: { gateway: Gateway }): Promise<void> {
  const app = untyped.withTypeProvider<TypeBoxTypeProvider>();
  app.route({ ...routeOf(PARTNER_ENDPOINTS.activity), handler: async (request) => ({ partners: await gateway.admin.audit.activity(request.query.logins) }) });
}
