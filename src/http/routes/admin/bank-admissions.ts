import { BANK_ADMISSION_ENDPOINTS } from '@partner-gateway/contract/admin-bank-admission-endpoints';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { Gateway } from '../../../gateway.js';
import { routeOf } from './admin-route.js';
import { answerSubmitted } from './answer-submitted.js';
import { changeOptions } from './banks.js';

/**
 * Admission: the review queue of new registry banks (read), and the operator's decisions on it, each a checked
 * action (maker-checker: permissioned, previewed, held when the settings say so, audited).
 */
export async function adminBankAdmissionRoutes(untyped: FastifyInstance, { gateway }: { gateway: Gateway }): Promise<void> {
  const app = untyped.withTypeProvider<TypeBoxTypeProvider>();
  const submit = <Result>(action: Parameters<Gateway['admin']['approvals']['submit']>[0], input: unknown, request: { requestContext: Parameters<Gateway['admin']['approvals']['submit']>[2] }) =>
    gateway.admin.approvals.submit<Result>(action, input, request.requestContext);
  app.route({ ...routeOf(BANK_ADMISSION_ENDPOINTS.queue), handler: () => gateway.admin.bankAdmissions.queue() });
  app.route({
    ...routeOf(BANK_ADMISSION_ENDPOINTS.admit),
    handler: async (request, reply) => {
      const input = { banks: request.body.banks, ...changeOptions(request.query) };
      return answerSubmitted(reply, await submit('banks.admit', input, request));
    },
  });
  app.route({ ...routeOf(BANK_ADMISSION_ENDPOINTS.exclude), handler: async (request, reply) => answerSubmitted(reply, await submit('banks.exclude', request.body, request)) });
  app.route({ ...routeOf(BANK_ADMISSION_ENDPOINTS.unexclude), handler: async (request, reply) => answerSubmitted(reply, await submit('banks.unexclude', request.body, request)) });
  app.route({ ...routeOf(BANK_ADMISSION_ENDPOINTS.exclusions), handler: () => gateway.admin.bankAdmissions.exclusions() });
  app.route({ ...routeOf(BANK_ADMISSION_ENDPOINTS.addRule), handler: async (request, reply) => answerSubmitted(reply, await submit('banks.exclusion.add', request.body, request), 201) });
  app.route({
    ...routeOf(BANK_ADMISSION_ENDPOINTS.removeExclusion),
    handler: async (request, reply) => answerSubmitted(reply, await submit('banks.exclusion.remove', { id: Number(request.params.id) }, request), 204),
  });
}
