import { partnerBodiesFor } from '@partner-gateway/contract/admin-partners';
import { PARTNER_ENDPOINTS } from '@partner-gateway/contract/admin-partner-endpoints';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { Gateway } from '../../../gateway.js';
import { routeOf } from './admin-route.js';
import { answerChecked } from './answer-submitted.js';

/** The partner registry: create, list, show, change and remove partners, and the reward types they may get. Responses never carry a hash. */
export async function adminPartnerRoutes(untyped: FastifyInstance, { gateway }: { gateway: Gateway }): Promise<void> {
  const app = untyped.withTypeProvider<TypeBoxTypeProvider>();
  const partners = gateway.admin.partners;
  // The bodies as this gateway takes them: reward types from its catalogue (an enum in the document).
  const bodies = partnerBodiesFor(partners.rewardTypes());
  app.route({ ...routeOf(PARTNER_ENDPOINTS.rewardTypes), handler: async () => ({ rewardTypes: partners.rewardTypes() }) });
  app.route({
    ...routeOf(PARTNER_ENDPOINTS.create, { body: bodies.create }),
    handler: async (request, reply) => {
      request.requestContext.audit.partner = request.body.login;
      // Checked, and its password hashed, before it is submitted: a proposal never keeps the password itself.
      const creation = await partners.hashedCreation(request.body);
      return answerChecked(gateway, PARTNER_ENDPOINTS.create, creation, request, reply);
    },
  });
  app.route({ ...routeOf(PARTNER_ENDPOINTS.list), handler: async () => ({ partners: await partners.list() }) });
  app.route({ ...routeOf(PARTNER_ENDPOINTS.get), handler: async (request) => partners.get(request.params.login) });
  app.route({
    ...routeOf(PARTNER_ENDPOINTS.update, { body: bodies.update }),
    handler: async (request, reply) => {
      const { login } = request.params;
      const { password, ...body } = request.body;
      request.requestContext.audit.partner = login;
      // Hashed before it is submitted, so that a proposal never keeps the password itself.
      const update = password === undefined ? body : { ...body, passwordHash: await partners.hashNewPassword(password) };
      return answerChecked(gateway, PARTNER_ENDPOINTS.update, { login, body: update }, request, reply);
    },
  });
  app.route({
    ...routeOf(PARTNER_ENDPOINTS.remove),
    handler: async (request, reply) => answerChecked(gateway, PARTNER_ENDPOINTS.remove, { login: request.params.login }, request, reply),
  });
}
