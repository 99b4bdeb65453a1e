import { auditableSyncRun } from '@partner-gateway/contract/admin-bank-sync';
import { BANK_SYNC_ENDPOINTS } from '@partner-gateway/contract/admin-bank-sync-endpoints';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { Gateway } from '../../../gateway.js';
import { actorRef } from '../../../request-context.js';
import { routeOf } from './admin-route.js';

/** The bank registry sync (BANKS_SYNC_URL): its status and runs, running it now, and a held run's decision. */
export async function adminBankSyncRoutes(untyped: FastifyInstance, { gateway }: { gateway: Gateway }): Promise<void> {
  const app = untyped.withTypeProvider<TypeBoxTypeProvider>();
  const sync = gateway.admin.bankSync;
  app.route({ ...routeOf(BANK_SYNC_ENDPOINTS.status), handler: async () => sync.status() });
  app.route({
    ...routeOf(BANK_SYNC_ENDPOINTS.run),
    handler: async (request) => {
      const context = request.requestContext;
      try {
        const run = await sync.run(actorRef(context.actor!));
        context.audit.details = auditableSyncRun(run);
        return run;
      } catch (error) {
        context.audit.details = { trigger: 'manual', outcome: 'failed' };
        throw error;
      }
    },
  });
  app.route({
    ...routeOf(BANK_SYNC_ENDPOINTS.preview),
    handler: async (request) => {
      const context = request.requestContext;
      context.audit.details = { dryRun: true };
      const preview = await sync.preview();
      context.audit.details = { dryRun: true, source: preview.source, baseVersion: preview.baseVersion, added: preview.added.length, changed: preview.changed.length, removed: preview.removed.length, ...(preview.holdReason ? { held: preview.holdReason } : {}) };
      return preview;
    },
  });
  app.route({
    ...routeOf(BANK_SYNC_ENDPOINTS.approve),
    handler: async (request) => {
      const id = Number(request.params.id);
      const context = request.requestContext;
      context.audit.details = { run: id };
      const run = await sync.approve(id, actorRef(context.actor!), request.query.comment);
      context.audit.details = { ...auditableSyncRun(run), approved: true };
      return run;
    },
  });
  app.route({
    ...routeOf(BANK_SYNC_ENDPOINTS.reject),
    handler: async (request) => {
      const id = Number(request.params.id);
      const context = request.requestContext;
      context.audit.details = { run: id };
      const comment = request.query.comment;
      const run = await sync.reject(id, actorRef(context.actor!), comment);
      context.audit.details = { run: id, rejected: true, ...(comment ? { reason: comment } : {}) };
      return run;
    },
  });
}
