import { BANK_PARTICIPANT_ENDPOINTS } from '@partner-gateway/contract/admin-bank-participant-endpoints';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { errors } from '../../../errors.js';
import type { Gateway } from '../../../gateway.js';
import { actorRef } from '../../../request-context.js';
import { routeOf } from './admin-route.js';
import { answerChecked } from './answer-submitted.js';
import { changeOptions } from './banks.js';

/**
 * The settlement bank's B2C participant list: its status (sync settings, readings, proposals), an import (a
 * checked action; dryRun previews), the sync run now, and confirming or rejecting name-match proposals.
 */
export async function adminBankParticipantRoutes(untyped: FastifyInstance, { gateway }: { gateway: Gateway }): Promise<void> {
  const app = untyped.withTypeProvider<TypeBoxTypeProvider>();
  const participants = gateway.admin.bankParticipants;
  app.route({ ...routeOf(BANK_PARTICIPANT_ENDPOINTS.status), handler: () => participants.status() });
  app.route({
    ...routeOf(BANK_PARTICIPANT_ENDPOINTS.sync),
    handler: async (request) => {
      const context = request.requestContext;
      const run = await participants.run(actorRef(context.actor!));
      context.audit.details = { run: run.id, outcome: run.outcome, version: run.version };
      return run;
    },
  });
  app.route({
    ...routeOf(BANK_PARTICIPANT_ENDPOINTS.confirm),
    handler: async (request, reply) => {
      return answerChecked(gateway, BANK_PARTICIPANT_ENDPOINTS.confirm, { bics: request.body.bics, ...changeOptions(request.query) }, request, reply);
    },
  });
  app.route({
    ...routeOf(BANK_PARTICIPANT_ENDPOINTS.reject),
    handler: async (request, reply) => answerChecked(gateway, BANK_PARTICIPANT_ENDPOINTS.reject, { bics: request.body.bics }, request, reply),
  });
  const bodyLimit = gateway.config.BANKS_IMPORT_MAX_BYTES;
  await app.register(async (untypedScope) => {
    const importScope = untypedScope.withTypeProvider<TypeBoxTypeProvider>();
    // The list is the body, read as bytes whatever its type; the reader picks JSON or CSV by Content-Type.
    importScope.removeAllContentTypeParsers();
    importScope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit }, (_request, body, done) => done(null, body));
    importScope.setErrorHandler((error: Error & { code?: string }) => {
      throw error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' ? errors.importTooLarge(bodyLimit) : error;
    });
    importScope.route({
      ...routeOf(BANK_PARTICIPANT_ENDPOINTS.import),
      bodyLimit,
      handler: async (request, reply) => {
        // The body is the list's bytes (no schema types it), checked entry by entry by the reader.
        const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const query = request.query;
        const contentType = request.headers['content-type'];
        if (query.dryRun === 'true') {
          const { report } = await participants.importFile(body, contentType, request.requestContext, { ...changeOptions(query), dryRun: true, ...(query.fileName ? { fileName: query.fileName } : {}) });
          request.requestContext.audit.details = { dryRun: true, received: report.received, proposals: report.proposals.length };
          return report;
        }
        const input = { file: { base64: body.toString('base64'), contentType, ...(query.fileName ? { fileName: query.fileName } : {}) }, ...changeOptions(query) };
        return answerChecked(gateway, BANK_PARTICIPANT_ENDPOINTS.import, input, request, reply);
      },
    });
  });
}
