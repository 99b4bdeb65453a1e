import {
  AddExclusionRuleBody,
  AdmitBanksBody,
  BankAdmissionQueue,
  BankExclusion,
  BankExclusionList,
  BankExclusionOutcome,
  ExcludeBanksBody,
  ExclusionParams,
  UnexcludeBanksBody,
} from '@partner-gateway/contract/admin-bank-admissions';
import { BankChangeQuery, BankListOutcome } from '@partner-gateway/contract/admin-bank-versions';
import { ErrorBody } from '@partner-gateway/contract/error-body';
import {
  ADMIN_BANK_ADMISSIONS_PATH,
  ADMIN_BANK_ADMIT_PATH,
  ADMIN_BANK_EXCLUDE_PATH,
  ADMIN_BANK_EXCLUSION_PATH,
  ADMIN_BANK_EXCLUSIONS_PATH,
  ADMIN_BANK_UNEXCLUDE_PATH,
} from '@partner-gateway/contract/paths';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { Gateway } from '../../../gateway.js';
import { answerSubmitted, PROPOSED } from './answer-submitted.js';
import { changeOptions } from './banks.js';

const errorResponses = { '4xx': ErrorBody, '5xx': ErrorBody };
const tags = ['Banks'];

/**
 * Admission: the review queue of new registry banks (read), and the operator's decisions on it, each a checked
 * action (maker-checker: permissioned, previewed, held when the settings say so, audited).
 */
export async function adminBankAdmissionRoutes(untyped: FastifyInstance, { gateway }: { gateway: Gateway }): Promise<void> {
  const app = untyped.withTypeProvider<TypeBoxTypeProvider>();
  const submit = <Result>(action: Parameters<Gateway['admin']['approvals']['submit']>[0], input: unknown, request: { requestContext: Parameters<Gateway['admin']['approvals']['submit']>[2] }) =>
    gateway.admin.approvals.submit<Result>(action, input, request.requestContext);
  app.get(
    ADMIN_BANK_ADMISSIONS_PATH,
    {
      config: { permission: 'read' },
      schema: {
        operationId: 'listBankAdmissions',
        tags,
        summary: 'The review queue: new SBP head offices a registry merge or sync found, pending or excluded (with the exclusion), with suggested display names',
        response: { 200: BankAdmissionQueue, ...errorResponses },
      },
    },
    () => gateway.admin.bankAdmissions.queue(),
  );
  app.post(
    ADMIN_BANK_ADMIT_PATH,
    {
      config: { audit: 'banks.admit', permission: 'banks.write' },
      schema: {
        operationId: 'admitBanks',
        tags,
        summary: 'Admit queued banks: appended at the end of the list, in the order given, as one version (maker-checker action banks.admit)',
        description: 'Each bank is published under `name` or, left out, its suggested name. 404 `bank_not_queued` for a BIC the queue does not hold, 409 `bank_excluded` for an excluded one; nothing is changed then.',
        querystring: BankChangeQuery,
        body: AdmitBanksBody,
        response: { 200: BankListOutcome, ...PROPOSED, ...errorResponses },
      },
    },
    async (request, reply) => {
      const input = { banks: request.body.banks, ...changeOptions(request.query) };
      return answerSubmitted(reply, await submit('banks.admit', input, request));
    },
  );
  app.post(
    ADMIN_BANK_EXCLUDE_PATH,
    {
      config: { audit: 'banks.exclude', permission: 'banks.write' },
      schema: {
        operationId: 'excludeBanks',
        tags,
        summary: 'Exclude BICs: kept out of the list across every sync and import, with the reason (maker-checker action banks.exclude)',
        description: 'A published bank cannot be excluded (409 `bank_listed`): remove it first.',
        body: ExcludeBanksBody,
        response: { 200: BankExclusionOutcome, ...PROPOSED, ...errorResponses },
      },
    },
    async (request, reply) => answerSubmitted(reply, await submit('banks.exclude', request.body, request)),
  );
  app.post(
    ADMIN_BANK_UNEXCLUDE_PATH,
    {
      config: { audit: 'banks.unexclude', permission: 'banks.write' },
      schema: {
        operationId: 'unexcludeBanks',
        tags,
        summary: 'Lift the exclusion of BICs: back to the queue while the registry lists them (maker-checker action banks.unexclude)',
        description: 'Lifts BIC exclusions only; a bank a name rule excludes stays excluded until the rule is removed.',
        body: UnexcludeBanksBody,
        response: { 200: BankExclusionOutcome, ...PROPOSED, ...errorResponses },
      },
    },
    async (request, reply) => answerSubmitted(reply, await submit('banks.unexclude', request.body, request)),
  );
  app.get(
    ADMIN_BANK_EXCLUSIONS_PATH,
    { config: { permission: 'read' }, schema: { operationId: 'listBankExclusions', tags, summary: 'Every exclusion (BICs and name rules, the default rules included), oldest first', response: { 200: BankExclusionList, ...errorResponses } } },
    () => gateway.admin.bankAdmissions.exclusions(),
  );
  app.post(
    ADMIN_BANK_EXCLUSIONS_PATH,
    {
      config: { audit: 'banks.exclusion.add', permission: 'banks.write' },
      schema: {
        operationId: 'addBankExclusionRule',
        tags,
        summary: 'Add a name rule: registry banks whose name holds these whole words, in order, are kept out (maker-checker action banks.exclusion.add)',
        body: AddExclusionRuleBody,
        response: { 201: BankExclusion, ...PROPOSED, ...errorResponses },
      },
    },
    async (request, reply) => answerSubmitted(reply, await submit('banks.exclusion.add', request.body, request), 201),
  );
  app.delete(
    ADMIN_BANK_EXCLUSION_PATH,
    {
      config: { audit: 'banks.exclusion.remove', permission: 'banks.write' },
      schema: {
        operationId: 'removeBankExclusion',
        tags,
        summary: 'Remove an exclusion, a rule or a BIC (maker-checker action banks.exclusion.remove)',
        params: ExclusionParams,
        response: { 204: { type: 'null', description: 'Removed' }, ...PROPOSED, ...errorResponses },
      },
    },
    async (request, reply) => answerSubmitted(reply, await submit('banks.exclusion.remove', { id: Number(request.params.id) }, request), 204),
  );
}
