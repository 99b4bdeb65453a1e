import { BankListOutcome, BankVersionPage, BankVersionQuery, BankVersionView, RestoreQuery, VersionParams } from '@partner-gateway/contract/admin-bank-versions';
import { ErrorBody } from '@partner-gateway/contract/error-body';
import { ADMIN_BANK_RESTORE_PATH, ADMIN_BANK_VERSION_PATH, ADMIN_BANK_VERSIONS_PATH } from '@partner-gateway/contract/paths';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { Gateway } from '../../../gateway.js';
import { answerSubmitted, PROPOSED } from './answer-submitted.js';
import { changeOptions } from './banks.js';

const errorResponses = { '4xx': ErrorBody, '5xx': ErrorBody };
const tags = ['Banks'];

/** The bank list's history: versions newest first, one version with its diff, and restoring one. */
export async function adminBankVersionRoutes(untyped: FastifyInstance, { gateway }: { gateway: Gateway }): Promise<void> {
  const app = untyped.withTypeProvider<TypeBoxTypeProvider>();
  const banks = gateway.admin.banks;
  app.get(
    ADMIN_BANK_VERSIONS_PATH,
    { config: { permission: 'read' }, schema: { operationId: 'listBankVersions', tags, summary: 'Versions of the bank list, newest first (cursor-paged)', querystring: BankVersionQuery, response: { 200: BankVersionPage, ...errorResponses } } },
    async (request) => {
      const query = request.query;
      // The schema holds limit to 1..BANK_VERSION_PAGE_MAX.
      return banks.versions(query.cursor === undefined ? undefined : Number(query.cursor), query.limit === undefined ? 50 : Number(query.limit));
    },
  );
  app.get(
    ADMIN_BANK_VERSION_PATH,
    { config: { permission: 'read' }, schema: { operationId: 'getBankVersion', tags, summary: "One version: its list and its changes from the version before it", params: VersionParams, response: { 200: BankVersionView, ...errorResponses } } },
    async (request) => banks.version(Number(request.params.n)),
  );
  app.post(
    ADMIN_BANK_RESTORE_PATH,
    {
      config: { audit: 'banks.restore', permission: 'banks.write' },
      schema: {
        operationId: 'restoreBankVersion',
        tags,
        summary: 'Restore a version: a new version equal to it (maker-checker action banks.restore); dryRun=true previews',
        description: 'Partners then get byte for byte the body (and ETag) they got when that version was current. `baseVersion`: 409 if the list has changed since.',
        params: VersionParams,
        querystring: RestoreQuery,
        response: { 200: BankListOutcome, ...PROPOSED, ...errorResponses },
      },
    },
    async (request, reply) => {
      const number = Number(request.params.n);
      const query = request.query;
      if (query.dryRun === 'true') return banks.restore(number, request.requestContext, { ...changeOptions(query), dryRun: true });
      return answerSubmitted(reply, await gateway.admin.approvals.submit('banks.restore', { number, ...changeOptions(query) }, request.requestContext));
    },
  );
}
