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
} from './admin-operators.js';
import { adminEndpoint } from './admin-endpoint.js';
import { ADMIN_OPERATOR_PATH, ADMIN_OPERATOR_TOKEN_PATH, ADMIN_OPERATOR_TOKENS_PATH, ADMIN_OPERATORS_PATH } from './paths.js';

const tags = ['Operators'];

/**
 * Operators and their personal tokens.
 *
 * @example
 * ```ts
 * const alice = await admin.operators.create({ name: 'alice', role: 'operator' });
 * const { token } = await admin.operators.createToken(alice.id, { label: 'laptop CLI', expiresInDays: 30 });
 * ```
 */
export const OPERATOR_ENDPOINTS = {
  list: adminEndpoint({
    method: 'GET',
    path: ADMIN_OPERATORS_PATH,
    operationId: 'listOperators',
    tags,
    summary: 'List operators',
    status: 200,
    answer: OperatorList,
    permission: 'read',
    cli: 'operator list',
    send: () => ({}),
  }),
  get: adminEndpoint({
    method: 'GET',
    path: ADMIN_OPERATOR_PATH,
    operationId: 'getOperator',
    tags,
    summary: 'Show an operator',
    params: OperatorIdParams,
    status: 200,
    answer: OperatorView,
    permission: 'read',
    cli: 'operator show',
    send: (id: string) => ({ params: { id } }),
  }),
  create: adminEndpoint({
    method: 'POST',
    path: ADMIN_OPERATORS_PATH,
    operationId: 'createOperator',
    tags,
    summary: 'Create an operator with a role (it then needs a personal token, or signs in by single sign-on)',
    description: 'Maker-checker action `operator.create`: when it needs approval, the answer is 202 with a proposal.',
    body: CreateOperatorBody,
    status: 201,
    answer: OperatorView,
    permission: 'operators.write',
    audit: 'operator.create',
    checked: 'operator.create',
    cli: 'operator add',
    send: (body: CreateOperatorBody) => ({ body }),
  }),
  // Also what `operator rename`, `operator disable` and `operator enable` call.
  update: adminEndpoint({
    method: 'PATCH',
    path: ADMIN_OPERATOR_PATH,
    operationId: 'updateOperator',
    tags,
    summary: 'Rename an operator, change its role, or disable it (its tokens and sessions are refused at once) or enable it',
    description: 'Maker-checker action `operator.update`: when it needs approval, the answer is 202 with a proposal.',
    params: OperatorIdParams,
    body: UpdateOperatorBody,
    status: 200,
    answer: OperatorView,
    permission: 'operators.write',
    audit: 'operator.update',
    checked: 'operator.update',
    cli: 'operator set-role',
    send: (id: string, body: UpdateOperatorBody) => ({ params: { id }, body }),
  }),
  tokens: adminEndpoint({
    method: 'GET',
    path: ADMIN_OPERATOR_TOKENS_PATH,
    operationId: 'listOperatorTokens',
    tags,
    summary: "An operator's personal tokens, with their last use (never the tokens)",
    params: OperatorIdParams,
    status: 200,
    answer: TokenList,
    permission: 'read',
    cli: 'token list',
    send: (id: string) => ({ params: { id } }),
  }),
  createToken: adminEndpoint({
    method: 'POST',
    path: ADMIN_OPERATOR_TOKENS_PATH,
    operationId: 'createOperatorToken',
    tags,
    summary: 'A new personal token (shown this once; default 90 days, at most 365)',
    params: OperatorIdParams,
    body: CreateTokenBody,
    status: 201,
    answer: CreatedToken,
    permission: 'operators.write',
    audit: 'operator.token.create',
    uncheckedBecause: 'the token is shown once, to its maker: a proposal would have to store it; a token acts only within its operator\'s role, and carries the chain it was made through',
    selfService: 'id',
    cli: 'token create',
    send: (id: string, body: CreateTokenBody) => ({ params: { id }, body }),
  }),
  revokeToken: adminEndpoint({
    method: 'DELETE',
    path: ADMIN_OPERATOR_TOKEN_PATH,
    operationId: 'revokeOperatorToken',
    tags,
    summary: 'Revoke a personal token at once, on every instance',
    params: TokenParams,
    status: 200,
    answer: TokenView,
    permission: 'operators.write',
    audit: 'operator.token.revoke',
    uncheckedBecause: 'taking a credential away must never wait',
    selfService: 'id',
    cli: 'token revoke',
    send: (id: string, tokenId: string) => ({ params: { id, tokenId } }),
  }),
};
