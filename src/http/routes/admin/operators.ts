import { OPERATOR_ENDPOINTS } from '@partner-gateway/contract/admin-operator-endpoints';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { Gateway } from '../../../gateway.js';
import { chainOfNewToken } from '../../../request-context.js';
import { routeOf } from './admin-route.js';
import { answerChecked } from './answer-submitted.js';

/**
 * The people who use the admin API and the console: operators with a role, and their personal tokens (shown once,
 * stored as a hash, revoked at once on every instance). Operators created by single sign-on appear here on their
 * first sign-in.
 */
export async function adminOperatorRoutes(untyped: FastifyInstance, { gateway }: { gateway: Gateway }): Promise<void> {
  const app = untyped.withTypeProvider<TypeBoxTypeProvider>();
  const operators = gateway.admin.operators;
  app.route({ ...routeOf(OPERATOR_ENDPOINTS.list), handler: async () => ({ operators: await operators.list() }) });
  app.route({
    ...routeOf(OPERATOR_ENDPOINTS.create),
    handler: async (request, reply) => answerChecked(gateway, OPERATOR_ENDPOINTS.create, request.body, request, reply),
  });
  app.route({ ...routeOf(OPERATOR_ENDPOINTS.get), handler: async (request) => operators.get(request.params.id) });
  app.route({
    ...routeOf(OPERATOR_ENDPOINTS.update),
    handler: async (request, reply) => answerChecked(gateway, OPERATOR_ENDPOINTS.update, { id: request.params.id, body: request.body }, request, reply),
  });
  app.route({ ...routeOf(OPERATOR_ENDPOINTS.tokens), handler: async (request) => ({ tokens: await operators.listTokens(request.params.id) }) });
  app.route({
    ...routeOf(OPERATOR_ENDPOINTS.createToken),
    handler: async (request, reply) => {
      const { id } = request.params;
      const actor = request.requestContext.actor!;
      const created = await operators.createToken(id, request.body, { id: actor.id, through: chainOfNewToken(actor, id) });
      const { token: _shownOnce, ...listed } = created;
      request.requestContext.audit.details = { operatorId: id, token: listed };
      return reply.code(201).send(created);
    },
  });
  app.route({
    ...routeOf(OPERATOR_ENDPOINTS.revokeToken),
    handler: async (request) => {
      const { id, tokenId } = request.params;
      const revoked = await operators.revokeToken(id, tokenId);
      request.requestContext.audit.details = { operatorId: id, token: revoked };
      return revoked;
    },
  });
}
