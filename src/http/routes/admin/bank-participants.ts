import { ParticipantsImportQuery, ParticipantsReport, ParticipantsRun, ParticipantsStatus, ProposalDecisionBody, ProposalRejection } from '@partner-gateway/contract/admin-bank-participants';
import { BankChangeQuery, BankListOutcome } from '@partner-gateway/contract/admin-bank-versions';
import { ErrorBody } from '@partner-gateway/contract/error-body';
import {
  ADMIN_BANK_PARTICIPANTS_IMPORT_PATH,
  ADMIN_BANK_PARTICIPANTS_PATH,
  ADMIN_BANK_PARTICIPANTS_SYNC_PATH,
  ADMIN_BANK_PROPOSALS_CONFIRM_PATH,
  ADMIN_BANK_PROPOSALS_REJECT_PATH,
} from '@partner-gateway/contract/paths';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { errors } from '../../../errors.js';
import type { Gateway } from '../../../gateway.js';
import { actorRef } from '../../../request-context.js';
import { answerSubmitted, PROPOSED } from './answer-submitted.js';
import { changeOptions } from './banks.js';

const errorResponses = { '4xx': ErrorBody, '5xx': ErrorBody };
const tags = ['Banks'];
const MATCHING =
  'Entries are matched by BIC first (the bank takes the member id, and the Latin name when it has none), then by the member id a bank already has, then by normalized name (legal form, quotes, case and ё aside): a name match is a proposal, applied only when an operator confirms it. ' +
  'A value an operator set is never changed (listed in keptOperatorValues); every field set records `participants` as its source. Entries and banks left unmatched are listed.';

/**
 * The settlement bank's B2C participant list: its status (sync settings, readings, proposals), an import (a
 * checked action; dryRun previews), the sync run now, and confirming or rejecting name-match proposals.
 */
export async function adminBankParticipantRoutes(untyped: FastifyInstance, { gateway }: { gateway: Gateway }): Promise<void> {
  const app = untyped.withTypeProvider<TypeBoxTypeProvider>();
  const participants = gateway.admin.bankParticipants;
  const submit = <Result>(action: Parameters<Gateway['admin']['approvals']['submit']>[0], input: unknown, request: { requestContext: Parameters<Gateway['admin']['approvals']['submit']>[2] }) =>
    gateway.admin.approvals.submit<Result>(action, input, request.requestContext);
  app.get(
    ADMIN_BANK_PARTICIPANTS_PATH,
    {
      config: { permission: 'read' },
      schema: { operationId: 'getBankParticipants', tags, summary: 'The participant list: its sync settings, the latest readings with what stayed unmatched, and the name-match proposals', response: { 200: ParticipantsStatus, ...errorResponses } },
    },
    () => participants.status(),
  );
  app.post(
    ADMIN_BANK_PARTICIPANTS_SYNC_PATH,
    {
      config: { audit: 'banks.participants.sync', permission: 'banks.write' },
      schema: {
        operationId: 'runParticipantsSync',
        tags,
        summary: 'Read the participant list at BANKS_PARTICIPANTS_URL now',
        description: `${MATCHING} A list that cannot be fetched or read changes nothing: 502 \`participants_sync_failed\`, the run recorded with its reason. 409 \`participants_sync_running\` while another run goes on; 409 \`participants_sync_not_configured\` without BANKS_PARTICIPANTS_URL.`,
        response: { 200: ParticipantsRun, ...errorResponses },
      },
    },
    async (request) => {
      const context = request.requestContext;
      const run = await participants.run(actorRef(context.actor!));
      context.audit.details = { run: run.id, outcome: run.outcome, version: run.version };
      return run;
    },
  );
  app.post(
    ADMIN_BANK_PROPOSALS_CONFIRM_PATH,
    {
      config: { audit: 'banks.participants.confirm', permission: 'banks.write' },
      schema: {
        operationId: 'confirmParticipantProposals',
        tags,
        summary: 'Confirm name-match proposals: each bank takes its member id (and Latin name when it has none) as one version (maker-checker action banks.participants.confirm)',
        description: '404 `proposal_not_pending` for a BIC without a pending proposal; nothing is changed then.',
        querystring: BankChangeQuery,
        body: ProposalDecisionBody,
        response: { 200: BankListOutcome, ...PROPOSED, ...errorResponses },
      },
    },
    async (request, reply) => {
      const input = { bics: request.body.bics, ...changeOptions(request.query) };
      return answerSubmitted(reply, await submit('banks.participants.confirm', input, request));
    },
  );
  app.post(
    ADMIN_BANK_PROPOSALS_REJECT_PATH,
    {
      config: { audit: 'banks.participants.reject', permission: 'banks.write' },
      schema: {
        operationId: 'rejectParticipantProposals',
        tags,
        summary: 'Reject name-match proposals: kept as rejected, never proposed again for the same member id (maker-checker action banks.participants.reject)',
        body: ProposalDecisionBody,
        response: { 200: ProposalRejection, ...PROPOSED, ...errorResponses },
      },
    },
    async (request, reply) => answerSubmitted(reply, await submit('banks.participants.reject', { bics: request.body.bics }, request)),
  );
  const bodyLimit = gateway.config.BANKS_IMPORT_MAX_BYTES;
  await app.register(async (importScope) => {
    // The list is the body, read as bytes whatever its type; the reader picks JSON or CSV by Content-Type.
    importScope.removeAllContentTypeParsers();
    importScope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit }, (_request, body, done) => done(null, body));
    importScope.setErrorHandler((error: Error & { code?: string }) => {
      throw error.code === 'FST_ERR_CTP_BODY_TOO_LARGE' ? errors.importTooLarge(bodyLimit) : error;
    });
    // The body is the list's bytes (no schema types it); the query is typed by its schema's contract type.
    importScope.post<{ Querystring: ParticipantsImportQuery }>(
      ADMIN_BANK_PARTICIPANTS_IMPORT_PATH,
      {
        config: { audit: 'banks.participants.import', permission: 'banks.write' },
        bodyLimit,
        schema: {
          operationId: 'importParticipants',
          tags,
          summary: "Import the settlement bank's B2C participant list, JSON or CSV (Content-Type names it); dryRun=true previews (maker-checker action banks.participants.import)",
          description: `${MATCHING} Bad input is one 422 listing every bad entry (a 12-digit member id as a string, a name, a BIC when given, no member id or BIC twice); a list over BANKS_IMPORT_MAX_BYTES is 413, another type 415.`,
          querystring: ParticipantsImportQuery,
          consumes: ['application/json', 'text/csv'],
          body: { description: 'The list: a JSON array (or {"participants": [...]}) of {memberId, name, nameEn?, bic?}, or a CSV with memberId and name columns (nameEn, bic optional)' },
          response: { 200: ParticipantsReport, ...PROPOSED, ...errorResponses },
        },
      },
      async (request, reply) => {
        const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const query = request.query;
        const contentType = request.headers['content-type'];
        if (query.dryRun === 'true') {
          const { report } = await participants.importFile(body, contentType, request.requestContext, { ...changeOptions(query), dryRun: true, ...(query.fileName ? { fileName: query.fileName } : {}) });
          request.requestContext.audit.details = { dryRun: true, received: report.received, proposals: report.proposals.length };
          return report;
        }
        const input = { file: { base64: body.toString('base64'), contentType, ...(query.fileName ? { fileName: query.fileName } : {}) }, ...changeOptions(query) };
        return answerSubmitted(reply, await submit('banks.participants.import', input, request));
      },
    );
  });
}
