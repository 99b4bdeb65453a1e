import { APPROVAL_ENDPOINTS } from '@partner-gateway/contract/admin-approval-endpoints';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { Gateway } from '../../../gateway.js';
import { routeOf } from './admin-route.js';
import { answerSubmitted } from './answer-submitted.js';

/** Maker-checker: proposals waiting for (or given) a second operator's decision, and which actions need one. */
export async function adminApprovalRoutes(untyped: FastifyInstance, { gateway }: { gateway: Gateway }): Promise<void> {
  const app = untyped.withTypeProvider<TypeBoxTypeProvider>();
  const approvals = gateway.admin.approvals;
  app.route({ ...routeOf(APPROVAL_ENDPOINTS.list), handler: async (request) => ({ proposals: await approvals.list(request.query) }) });
  app.route({ ...routeOf(APPROVAL_ENDPOINTS.settings), handler: async () => approvals.settings() });
  app.route({
    ...routeOf(APPROVAL_ENDPOINTS.setSettings),
    handler: async (request, reply) => {
      const outcome = await approvals.submit(APPROVAL_ENDPOINTS.setSettings.checked, request.body, request.requestContext);
      return answerSubmitted(reply, 'proposal' in outcome ? outcome : { applied: await approvals.settings() });
    },
  });
  app.route({ ...routeOf(APPROVAL_ENDPOINTS.get), handler: async (request) => approvals.get(request.params.id) });
  app.route({ ...routeOf(APPROVAL_ENDPOINTS.approve), handler: async (request) => approvals.approve(request.params.id, request.requestContext) });
  app.route({ ...routeOf(APPROVAL_ENDPOINTS.reject), handler: async (request) => approvals.reject(request.params.id, request.body, request.requestContext) });
}
