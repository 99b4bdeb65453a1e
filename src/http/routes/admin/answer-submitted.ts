import { ProposalView } from '@partner-gateway/contract/admin-approvals';
import type { FastifyReply } from 'fastify';

/**
 * The answer to a change submitted to maker-checker (gateway.admin.approvals.submit): `status` with what it
 * answered when it was made at once, or 202 with the proposal when it waits for a second operator.
 */
export function answerSubmitted<Result>(reply: FastifyReply, outcome: { applied: Result } | { proposal: ProposalView }, status = 200): FastifyReply {
  if ('proposal' in outcome) return reply.code(202).send(outcome.proposal);
  return status === 204 ? reply.code(204).send() : reply.code(status).send(outcome.applied);
}

/** The 202 answer every checked route documents. */
export const PROPOSED = {
  202: { ...ProposalView, description: 'The action needs a second operator (maker-checker): a pending proposal, with its id and a preview, to approve at /admin/v1/approvals/{id}/approve' },
};
