import { PARTNER_ENDPOINTS } from '@partner-gateway/contract/admin-partner-endpoints';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { Gateway } from '../../../gateway.js';
import { routeOf } from './admin-route.js';

/** GET /admin/v1/credential-ends: the partners' credentials that stop working by themselves soon, soonest first. */
export async function adminCredentialEndsRoutes(untyped: FastifyInstance, { gateway }: { gateway: Gateway }): Promise<void> {
  const app = untyped.withTypeProvider<TypeBoxTypeProvider>();
  app.route({ ...routeOf(PARTNER_ENDPOINTS.credentialEnds), handler: async (request) => gateway.admin.credentialEnds(request.query) });
}
