import { ProposalView, type CheckedActionName } from '@partner-gateway/contract/admin-approvals';
import type { AdminEndpoint } from '@partner-gateway/contract/admin-endpoint';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Gateway } from '../../../gateway.js';

/**
 * The answer to a change submitted to maker-checker (gateway.admin.approvals.submit): `status` with what it
 * answered when it was made at once, or 202 with the proposal when it waits for a second operator.
 */
export function answerSubmitted<Result>(reply: FastifyReply, outcome: { applied: Result } | { proposal: ProposalView }, status = 200): FastifyReply {
  if ('proposal' in outcome) return reply.code(202).send(outcome.proposal);
  return status === 204 ? reply.code(204).send() : reply.code(status).send(outcome.applied);
}

/**
 * A checked endpoint's change submitted as its declared maker-checker action, answered as it declares: its status
 * with what was made at once, or 202 with the proposal. The action and the status are the declaration's, never
 * written again in the route.
 *
 * @example
 * ```ts
 * handler: (request, reply) => answerChecked(gateway, KEY_ENDPOINTS.revoke, { kid: request.params.kid }, request, reply)
 * ```
 */
export async function answerChecked(gateway: Gateway, endpoint: AdminEndpoint & { checked: CheckedActionName }, input: unknown, request: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  return answerSubmitted(reply, await gateway.admin.approvals.submit(endpoint.checked, input, request.requestContext), endpoint.status);
}

/** The 202 answer every checked route documents. */
export const PROPOSED = {
  202: { ...ProposalView, description: 'The action needs a second operator (maker-checker): a pending proposal, with its id and a preview, to approve at /admin/v1/approvals/{id}/approve' },
};
