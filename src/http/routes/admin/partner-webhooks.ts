import { WEBHOOK_ENDPOINTS } from '@partner-gateway/contract/admin-webhook-endpoints';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { Gateway } from '../../../gateway.js';
import { routeOf } from './admin-route.js';

/**
 * A partner's webhook endpoints (issue 34): the partner sub-resource pattern for a collection. Creating and rotating
 * answer the signing material once; the audit entry keeps the endpoint's public view only (never a secret). These
 * changes are made at once, not through maker-checker (WEBHOOK_ENDPOINTS says why).
 */
export async function adminPartnerWebhookRoutes(untyped: FastifyInstance, { gateway }: { gateway: Gateway }): Promise<void> {
  const app = untyped.withTypeProvider<TypeBoxTypeProvider>();
  const webhooks = gateway.admin.webhooks;
  app.route({ ...routeOf(WEBHOOK_ENDPOINTS.list), handler: async (request) => ({ endpoints: await webhooks.list(request.params.login) }) });
  app.route({
    ...routeOf(WEBHOOK_ENDPOINTS.create),
    handler: async (request, reply) => {
      const { login } = request.params;
      request.requestContext.audit.partner = login;
      const created = await webhooks.create(login, request.body);
      request.requestContext.audit.details = { after: created.endpoint };
      return reply.code(201).send(created);
    },
  });
  app.route({
    ...routeOf(WEBHOOK_ENDPOINTS.remove),
    handler: async (request, reply) => {
      const { login, id } = request.params;
      request.requestContext.audit.partner = login;
      request.requestContext.audit.details = { before: await webhooks.remove(login, id) };
      return reply.code(204).send(null);
    },
  });
  app.route({
    ...routeOf(WEBHOOK_ENDPOINTS.rotate),
    handler: async (request) => {
      const { login, id } = request.params;
      request.requestContext.audit.partner = login;
      const { before, ...rotated } = await webhooks.rotate(login, id, request.body);
      request.requestContext.audit.details = { before, after: rotated.endpoint };
      return rotated;
    },
  });
  app.route({
    ...routeOf(WEBHOOK_ENDPOINTS.attempts),
    handler: async (request) => {
      const { login, id } = request.params;
      return { attempts: await webhooks.attempts(login, id, Number(request.query.limit ?? 100)) };
    },
  });
  app.route({
    ...routeOf(WEBHOOK_ENDPOINTS.replay),
    handler: async (request) => {
      const { login, id } = request.params;
      request.requestContext.audit.partner = login;
      const body = request.body;
      const queued = await webhooks.replay(login, id, body);
      request.requestContext.audit.details = { endpoint: id, ...body, queued };
      return { queued };
    },
  });
}
