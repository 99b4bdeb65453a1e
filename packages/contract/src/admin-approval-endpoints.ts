import { ApprovalSettings, ProposalList, ProposalParams, ProposalQuery, ProposalView, RejectBody, SetApprovalSettingsBody } from './admin-approvals.js';
import { adminEndpoint } from './admin-endpoint.js';
import { ADMIN_APPROVAL_APPROVE_PATH, ADMIN_APPROVAL_PATH, ADMIN_APPROVAL_REJECT_PATH, ADMIN_APPROVAL_SETTINGS_PATH, ADMIN_APPROVALS_PATH } from './paths.js';

const tags = ['Approvals'];

/** Maker-checker: proposals and which actions need approval. */
export const APPROVAL_ENDPOINTS = {
  list: adminEndpoint({
    method: 'GET',
    path: ADMIN_APPROVALS_PATH,
    operationId: 'listProposals',
    tags,
    summary: 'Proposals, newest first',
    querystring: ProposalQuery,
    status: 200,
    answer: ProposalList,
    permission: 'read',
    cli: 'approval list',
    send: (query: ProposalQuery = {}) => ({ query }),
  }),
  get: adminEndpoint({
    method: 'GET',
    path: ADMIN_APPROVAL_PATH,
    operationId: 'getProposal',
    tags,
    summary: 'Show a proposal',
    params: ProposalParams,
    status: 200,
    answer: ProposalView,
    permission: 'read',
    cli: 'approval show',
    send: (id: string) => ({ params: { id } }),
  }),
  approve: adminEndpoint({
    method: 'POST',
    path: ADMIN_APPROVAL_APPROVE_PATH,
    operationId: 'approveProposal',
    tags,
    summary: "Approve another operator's proposal: the change is made exactly as previewed, or refused (409) if what it was based on has changed",
    description:
      "The approver needs the proposal's action's own permission too, must not be its proposer, and must not use a token the proposer issued. " +
      "The audit entry is the change's action, naming the proposer as its operator and the approver beside.",
    params: ProposalParams,
    status: 200,
    answer: ProposalView,
    permission: 'approvals.decide',
    audit: 'approval.approve',
    uncheckedBecause: 'it is the second operator\'s decision itself',
    cli: 'approval approve',
    send: (id: string) => ({ params: { id } }),
  }),
  reject: adminEndpoint({
    method: 'POST',
    path: ADMIN_APPROVAL_REJECT_PATH,
    operationId: 'rejectProposal',
    tags,
    summary: 'Reject a proposal (its proposer may withdraw it so)',
    params: ProposalParams,
    body: RejectBody,
    status: 200,
    answer: ProposalView,
    permission: 'approvals.decide',
    audit: 'approval.reject',
    uncheckedBecause: 'it is the second operator\'s decision (or its proposer\'s withdrawal) itself',
    cli: 'approval reject',
    send: (id: string, body: RejectBody = {}) => ({ params: { id }, body }),
  }),
  settings: adminEndpoint({
    method: 'GET',
    path: ADMIN_APPROVAL_SETTINGS_PATH,
    operationId: 'getApprovalSettings',
    tags,
    summary: 'Every action maker-checker can hold, and whether it needs approval',
    status: 200,
    answer: ApprovalSettings,
    permission: 'read',
    cli: 'approval settings',
    send: () => ({}),
  }),
  /** Sets every action that needs a second operator: the list replaces the previous one. */
  setSettings: adminEndpoint({
    method: 'PUT',
    path: ADMIN_APPROVAL_SETTINGS_PATH,
    operationId: 'setApprovalSettings',
    tags,
    summary: 'Set which actions need a second operator (the list replaces the previous one)',
    description: 'Maker-checker action `approvals.configure`: when it needs approval itself, the answer is 202 with a proposal.',
    body: SetApprovalSettingsBody,
    status: 200,
    answer: ApprovalSettings,
    permission: 'approvals.settings',
    audit: 'approvals.configure',
    checked: 'approvals.configure',
    cli: 'approval settings',
    // The names are sent as given (an operator's --require): the gateway refuses an unknown one, naming it.
    send: (required: string[]) => ({ body: { required: required as SetApprovalSettingsBody['required'] } }),
  }),
};
