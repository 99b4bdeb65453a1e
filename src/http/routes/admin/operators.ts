import {
  CreatedToken,
  CreateOperatorBody,
  CreateTokenBody,
  OperatorIdParams,
  OperatorList,
  OperatorView,
  TokenList,
  TokenParams,
  TokenView,
  UpdateOperatorBody,
} from '@partner-gateway/contract/admin-operators';
import { ErrorBody } from '@partner-gateway/contract/error-body';
import { ADMIN_OPERATOR_PATH, ADMIN_OPERATOR_TOKEN_PATH, ADMIN_OPERATOR_TOKENS_PATH, ADMIN_OPERATORS_PATH } from '@partner-gateway/contract/paths';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { Gateway } from '../../../gateway.js';
import { chainOfNewToken } from '../../../request-context.js';
import { answerSubmitted, PROPOSED } from './answer-submitted.js';

const errorResponses = { '4xx': ErrorBody, '5xx': ErrorBody };
const tags = ['Operators'];

/**
 * The people who use the admin API and the console: operators with a role, and their personal tokens (shown once,
 * stored as a hash, revoked at once on every instance). Operators created by single sign-on appear here on their
 * first sign-in.
 */
export async function adminOperatorRoutes(untyped: FastifyInstance, { gateway }: { gateway: Gateway }): Promise<void> {
  const app = untyped.withTypeProvider<TypeBoxTypeProvider>();
  const operators = gateway.admin.operators;
  app.get(ADMIN_OPERATORS_PATH, { config: { permission: 'read' }, schema: { operationId: 'listOperators', tags, summary: 'List operators', response: { 200: OperatorList, ...errorResponses } } }, async () => ({
    operators: await operators.list(),
  }));
  app.post(
    ADMIN_OPERATORS_PATH,
    {
      config: { audit: 'operator.create', permission: 'operators.write' },
      schema: {
        operationId: 'createOperator',
        tags,
        summary: 'Create an operator with a role (it then needs a personal token, or signs in by single sign-on)',
        description: 'Maker-checker action `operator.create`: when it needs approval, the answer is 202 with a proposal.',
        body: CreateOperatorBody,
        response: { 201: OperatorView, ...PROPOSED, ...errorResponses },
      },
    },
    async (request, reply) => answerSubmitted(reply, await gateway.admin.approvals.submit('operator.create', request.body, request.requestContext), 201),
  );
  app.get(ADMIN_OPERATOR_PATH, { config: { permission: 'read' }, schema: { operationId: 'getOperator', tags, summary: 'Show an operator', params: OperatorIdParams, response: { 200: OperatorView, ...errorResponses } } }, async (request) =>
    operators.get(request.params.id),
  );
  app.patch(
    ADMIN_OPERATOR_PATH,
    {
      config: { audit: 'operator.update', permission: 'operators.write' },
      schema: {
        operationId: 'updateOperator',
        tags,
        summary: 'Rename an operator, change its role, or disable it (its tokens and sessions are refused at once) or enable it',
        description: 'Maker-checker action `operator.update`: when it needs approval, the answer is 202 with a proposal.',
        params: OperatorIdParams,
        body: UpdateOperatorBody,
        response: { 200: OperatorView, ...PROPOSED, ...errorResponses },
      },
    },
    async (request, reply) => answerSubmitted(reply, await gateway.admin.approvals.submit('operator.update', { id: request.params.id, body: request.body }, request.requestContext)),
  );
  app.get(
    ADMIN_OPERATOR_TOKENS_PATH,
    {
      config: { permission: 'read' },
      schema: { operationId: 'listOperatorTokens', tags, summary: "An operator's personal tokens, with their last use (never the tokens)", params: OperatorIdParams, response: { 200: TokenList, ...errorResponses } },
    },
    async (request) => ({ tokens: await operators.listTokens(request.params.id) }),
  );
  app.post(
    ADMIN_OPERATOR_TOKENS_PATH,
    {
      config: { audit: 'operator.token.create', permission: 'operators.write', selfService: 'id' },
      schema: {
        operationId: 'createOperatorToken',
        tags,
        summary: 'A new personal token (shown this once; default 90 days, at most 365)',
        params: OperatorIdParams,
        body: CreateTokenBody,
        response: { 201: CreatedToken, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { id } = request.params;
      const actor = request.requestContext.actor!;
      const created = await operators.createToken(id, request.body, { id: actor.id, through: chainOfNewToken(actor, id) });
      const { token: _shownOnce, ...listed } = created;
      request.requestContext.audit.details = { operatorId: id, token: listed };
      return reply.code(201).send(created);
    },
  );
  app.delete(
    ADMIN_OPERATOR_TOKEN_PATH,
    {
      config: { audit: 'operator.token.revoke', permission: 'operators.write', selfService: 'id' },
      schema: { operationId: 'revokeOperatorToken', tags, summary: 'Revoke a personal token at once, on every instance', params: TokenParams, response: { 200: TokenView, ...errorResponses } },
    },
    async (request) => {
      const { id, tokenId } = request.params;
      const revoked = await operators.revokeToken(id, tokenId);
      request.requestContext.audit.details = { operatorId: id, token: revoked };
      return revoked;
    },
  );
}
