import { auditableSyncRun, BankSyncDecisionQuery, BankSyncPreview, BankSyncRun, BankSyncRunParams, BankSyncRunView, BankSyncStatus } from '@partner-gateway/contract/admin-bank-sync';
import { ErrorBody } from '@partner-gateway/contract/error-body';
import { ADMIN_BANK_SYNC_APPROVE_PATH, ADMIN_BANK_SYNC_PATH, ADMIN_BANK_SYNC_PREVIEW_PATH, ADMIN_BANK_SYNC_REJECT_PATH } from '@partner-gateway/contract/paths';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { Gateway } from '../../../gateway.js';
import { actorRef } from '../../../request-context.js';

const errorResponses = { '4xx': ErrorBody, '5xx': ErrorBody };
const tags = ['Banks'];

/** The bank registry sync (BANKS_SYNC_URL): its status and runs, running it now, and a held run's decision. */
export async function adminBankSyncRoutes(untyped: FastifyInstance, { gateway }: { gateway: Gateway }): Promise<void> {
  const app = untyped.withTypeProvider<TypeBoxTypeProvider>();
  const sync = gateway.admin.bankSync;
  app.get(
    ADMIN_BANK_SYNC_PATH,
    { config: { permission: 'read' }, schema: { operationId: 'getBankSync', tags, summary: 'The registry sync: its settings, the last runs, and the held run waiting for a decision', response: { 200: BankSyncStatus, ...errorResponses } } },
    async () => sync.status(),
  );
  app.post(
    ADMIN_BANK_SYNC_PATH,
    {
      config: { audit: 'banks.sync', permission: 'banks.write' },
      schema: {
        operationId: 'runBankSync',
        tags,
        summary: 'Run the registry sync now (POST /admin/v1/banks/sync/preview shows first what it would do)',
        description:
          'Downloads BANKS_SYNC_URL (an ED807 directory, XML or ZIP) and merges it as every registry import does: new SBP head offices appended, registry facts updated, banks that left SBP removed, curated fields of the banks that stay untouched. ' +
          'Answers the run: `applied` (a new version), `held` (more than BANKS_SYNC_MAX_REMOVALS removals, or fewer than BANKS_SYNC_MIN_BANKS banks left: approve or reject it), or `unchanged`. ' +
          'A source that cannot be fetched or read changes nothing: 502 `bank_sync_failed`, the run recorded with its reason. 409 `bank_sync_running` while another run goes on; 409 `bank_sync_not_configured` without BANKS_SYNC_URL.',
        response: { 200: BankSyncRunView, ...errorResponses },
      },
    },
    async (request) => {
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
  );
  app.post(
    ADMIN_BANK_SYNC_PREVIEW_PATH,
    {
      config: { audit: 'banks.sync', permission: 'banks.write' },
      schema: {
        operationId: 'previewBankSync',
        tags,
        summary: 'What a registry sync would do now, bank by bank and field by field, and whether the removal guard would hold it; nothing changes',
        description: 'Downloads BANKS_SYNC_URL and merges it with the current list without saving anything (the audit trail records the dry run). 502 `bank_sync_failed` when the source cannot be fetched or read.',
        response: { 200: BankSyncPreview, ...errorResponses },
      },
    },
    async (request) => {
      const context = request.requestContext;
      context.audit.details = { dryRun: true };
      const preview = await sync.preview();
      context.audit.details = { dryRun: true, source: preview.source, baseVersion: preview.baseVersion, added: preview.added.length, changed: preview.changed.length, removed: preview.removed.length, ...(preview.holdReason ? { held: preview.holdReason } : {}) };
      return preview;
    },
  );
  app.post(
    ADMIN_BANK_SYNC_APPROVE_PATH,
    {
      config: { audit: 'banks.sync.approve', permission: 'banks.write' },
      schema: {
        operationId: 'approveBankSync',
        tags,
        summary: 'Approve a held sync run: applied exactly as previewed, as a new version (409 bank_list_changed if the list changed since it was held)',
        params: BankSyncRunParams,
        querystring: BankSyncDecisionQuery,
        response: { 200: BankSyncRunView, ...errorResponses },
      },
    },
    async (request) => {
      const id = Number(request.params.id);
      const context = request.requestContext;
      context.audit.details = { run: id };
      const run = await sync.approve(id, actorRef(context.actor!), request.query.comment);
      context.audit.details = { ...auditableSyncRun(run), approved: true };
      return run;
    },
  );
  app.post(
    ADMIN_BANK_SYNC_REJECT_PATH,
    {
      config: { audit: 'banks.sync.reject', permission: 'banks.write' },
      schema: { operationId: 'rejectBankSync', tags, summary: 'Reject a held sync run: nothing changes', params: BankSyncRunParams, querystring: BankSyncDecisionQuery, response: { 200: BankSyncRun, ...errorResponses } },
    },
    async (request) => {
      const id = Number(request.params.id);
      const context = request.requestContext;
      context.audit.details = { run: id };
      const comment = request.query.comment;
      const run = await sync.reject(id, actorRef(context.actor!), comment);
      context.audit.details = { run: id, rejected: true, ...(comment ? { reason: comment } : {}) };
      return run;
    },
  );
}
