import { PARTNER_USER_ENDPOINTS } from '@partner-gateway/contract/admin-partner-user-endpoints';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { Gateway } from '../../../gateway.js';
import { routeOf } from './admin-route.js';

/** A partner's people in the portal: operators list them, invite one (the link answered once; the audit keeps the invitation without it) and remove one who left. */
export async function adminPartnerUserRoutes(untyped: FastifyInstance, { gateway }: { gateway: Gateway }): Promise<void> {
  const app = untyped.withTypeProvider<TypeBoxTypeProvider>();
  const people = gateway.admin.partnerUsers;
  app.route({ ...routeOf(PARTNER_USER_ENDPOINTS.list), handler: async (request) => people.list(request.params.login) });
  app.route({
    ...routeOf(PARTNER_USER_ENDPOINTS.invite),
    handler: async (request, reply) => {
      const { login } = request.params;
      const context = request.requestContext;
      context.audit.partner = login;
      const created = await people.invite(login, request.body, context.actor?.id ?? 'unknown');
      context.audit.details = { invitation: created.invitation };
      return reply.code(201).send(created);
    },
  });
  app.route({
    ...routeOf(PARTNER_USER_ENDPOINTS.remove),
    handler: async (request, reply) => {
      const { login, id } = request.params;
      request.requestContext.audit.partner = login;
      request.requestContext.audit.details = { before: await people.remove(login, id) };
      return reply.code(204).send(null);
    },
  });
}
