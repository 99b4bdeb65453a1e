import { ApprovalSettings, ProposalList, ProposalParams, ProposalQuery, ProposalView, RejectBody, SetApprovalSettingsBody } from '@partner-gateway/contract/admin-approvals';
import { ErrorBody } from '@partner-gateway/contract/error-body';
import { ADMIN_APPROVAL_APPROVE_PATH, ADMIN_APPROVAL_PATH, ADMIN_APPROVAL_REJECT_PATH, ADMIN_APPROVAL_SETTINGS_PATH, ADMIN_APPROVALS_PATH } from '@partner-gateway/contract/paths';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { Gateway } from '../../../gateway.js';
import { answerSubmitted, PROPOSED } from './answer-submitted.js';

const errorResponses = { '4xx': ErrorBody, '5xx': ErrorBody };
const tags = ['Approvals'];

/** Maker-checker: proposals waiting for (or given) a second operator's decision, and which actions need one. */
export async function adminApprovalRoutes(untyped: FastifyInstance, { gateway }: { gateway: Gateway }): Promise<void> {
  const app = untyped.withTypeProvider<TypeBoxTypeProvider>();
  const approvals = gateway.admin.approvals;
  app.get(
    ADMIN_APPROVALS_PATH,
    { config: { permission: 'read' }, schema: { operationId: 'listProposals', tags, summary: 'Proposals, newest first', querystring: ProposalQuery, response: { 200: ProposalList, ...errorResponses } } },
    async (request) => ({ proposals: await approvals.list(request.query) }),
  );
  app.get(
    ADMIN_APPROVAL_SETTINGS_PATH,
    { config: { permission: 'read' }, schema: { operationId: 'getApprovalSettings', tags, summary: 'Every action maker-checker can hold, and whether it needs approval', response: { 200: ApprovalSettings, ...errorResponses } } },
    async () => approvals.settings(),
  );
  app.put(
    ADMIN_APPROVAL_SETTINGS_PATH,
    {
      config: { audit: 'approvals.configure', permission: 'approvals.settings' },
      schema: {
        operationId: 'setApprovalSettings',
        tags,
        summary: 'Set which actions need a second operator (the list replaces the previous one)',
        description: 'Maker-checker action `approvals.configure`: when it needs approval itself, the answer is 202 with a proposal.',
        body: SetApprovalSettingsBody,
        response: { 200: ApprovalSettings, ...PROPOSED, ...errorResponses },
      },
    },
    async (request, reply) => {
      const outcome = await approvals.submit('approvals.configure', request.body, request.requestContext);
      return answerSubmitted(reply, 'proposal' in outcome ? outcome : { applied: await approvals.settings() });
    },
  );
  app.get(
    ADMIN_APPROVAL_PATH,
    { config: { permission: 'read' }, schema: { operationId: 'getProposal', tags, summary: 'Show a proposal', params: ProposalParams, response: { 200: ProposalView, ...errorResponses } } },
    async (request) => approvals.get(request.params.id),
  );
  app.post(
    ADMIN_APPROVAL_APPROVE_PATH,
    {
      config: { audit: 'approval.approve', permission: 'approvals.decide' },
      schema: {
        operationId: 'approveProposal',
        tags,
        summary: "Approve another operator's proposal: the change is made exactly as previewed, or refused (409) if what it was based on has changed",
        description:
          "The approver needs the proposal's action's own permission too, must not be its proposer, and must not use a token the proposer issued. " +
          "The audit entry is the change's action, naming the proposer as its operator and the approver beside.",
        params: ProposalParams,
        response: { 200: ProposalView, ...errorResponses },
      },
    },
    async (request) => approvals.approve(request.params.id, request.requestContext),
  );
  app.post(
    ADMIN_APPROVAL_REJECT_PATH,
    {
      config: { audit: 'approval.reject', permission: 'approvals.decide' },
      schema: {
        operationId: 'rejectProposal',
        tags,
        summary: 'Reject a proposal (its proposer may withdraw it so)',
        params: ProposalParams,
        body: RejectBody,
        response: { 200: ProposalView, ...errorResponses },
      },
    },
    async (request) => approvals.reject(request.params.id, (request.body ?? {}) as RejectBody, request.requestContext),
  );
}
