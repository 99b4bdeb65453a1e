import { BANK_ENDPOINTS } from '@partner-gateway/contract/admin-bank-endpoints';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { Gateway } from '../../../gateway.js';
import { routeOf } from './admin-route.js';
import { answerChecked } from './answer-submitted.js';
import { changeOptions } from './banks.js';

/** The bank list's history: versions newest first, one version with its diff, and restoring one. */
export async function adminBankVersionRoutes(untyped: FastifyInstance, { gateway }: { gateway: Gateway }): Promise<void> {
  const app = untyped.withTypeProvider<TypeBoxTypeProvider>();
  const banks = gateway.admin.banks;
  app.route({
    ...routeOf(BANK_ENDPOINTS.versions),
    handler: async (request) => {
      const query = request.query;
      // The schema holds limit to 1..BANK_VERSION_PAGE_MAX.
      return banks.versions(query.cursor === undefined ? undefined : Number(query.cursor), query.limit === undefined ? 50 : Number(query.limit));
    },
  });
  app.route({ ...routeOf(BANK_ENDPOINTS.version), handler: async (request) => banks.version(Number(request.params.n)) });
  app.route({
    ...routeOf(BANK_ENDPOINTS.restore),
    handler: async (request, reply) => {
      const number = Number(request.params.n);
      const query = request.query;
      if (query.dryRun === 'true') return banks.restore(number, request.requestContext, { ...changeOptions(query), dryRun: true });
      return answerChecked(gateway, BANK_ENDPOINTS.restore, { number, ...changeOptions(query) }, request, reply);
    },
  });
}
