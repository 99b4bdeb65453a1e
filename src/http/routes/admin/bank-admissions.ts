import { BANK_ADMISSION_ENDPOINTS } from '@partner-gateway/contract/admin-bank-admission-endpoints';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { Gateway } from '../../../gateway.js';
import { routeOf } from './admin-route.js';
import { answerChecked } from './answer-submitted.js';
import { changeOptions } from './banks.js';

/**
 * Admission: the review queue of new registry banks (read), and the operator's decisions on it, each a checked
 * action (maker-checker: permissioned, previewed, held when the settings say so, audited).
 */
export async function adminBankAdmissionRoutes(untyped: FastifyInstance, { gateway }: { gateway: Gateway }): Promise<void> {
  const app = untyped.withTypeProvider<TypeBoxTypeProvider>();
  app.route({ ...routeOf(BANK_ADMISSION_ENDPOINTS.queue), handler: () => gateway.admin.bankAdmissions.queue() });
  app.route({
    ...routeOf(BANK_ADMISSION_ENDPOINTS.admit),
    handler: async (request, reply) => {
      return answerChecked(gateway, BANK_ADMISSION_ENDPOINTS.admit, { banks: request.body.banks, ...changeOptions(request.query) }, request, reply);
    },
  });
  app.route({ ...routeOf(BANK_ADMISSION_ENDPOINTS.exclude), handler: async (request, reply) => answerChecked(gateway, BANK_ADMISSION_ENDPOINTS.exclude, request.body, request, reply) });
  app.route({ ...routeOf(BANK_ADMISSION_ENDPOINTS.unexclude), handler: async (request, reply) => answerChecked(gateway, BANK_ADMISSION_ENDPOINTS.unexclude, request.body, request, reply) });
  app.route({ ...routeOf(BANK_ADMISSION_ENDPOINTS.exclusions), handler: () => gateway.admin.bankAdmissions.exclusions() });
  app.route({ ...routeOf(BANK_ADMISSION_ENDPOINTS.addRule), handler: async (request, reply) => answerChecked(gateway, BANK_ADMISSION_ENDPOINTS.addRule, request.body, request, reply) });
  app.route({
    ...routeOf(BANK_ADMISSION_ENDPOINTS.removeExclusion),
    handler: async (request, reply) => answerChecked(gateway, BANK_ADMISSION_ENDPOINTS.removeExclusion, { id: Number(request.params.id) }, request, reply),
  });
}
