import type { OperatorView, TokenView } from '@partner-gateway/contract/admin-operators';
import type { Operator } from './operator-repository.js';
import type { OperatorToken } from './operator-token-repository.js';

/** What the admin API shows of an operator. */
export function toOperatorView(operator: Operator): OperatorView {
  return {
    id: operator.id,
    name: operator.name,
    role: operator.role,
    status: operator.status,
    source: operator.ssoSubject === null ? 'local' : 'sso',
    createdAt: operator.createdAt.toISOString(),
    updatedAt: operator.updatedAt.toISOString(),
    lastUsedAt: operator.lastUsedAt?.toISOString() ?? null,
  };
}

/** What the admin API shows of a personal token: never the token, nor its hash. */
export function toTokenView(token: OperatorToken): TokenView {
  return {
    id: token.id,
    label: token.label,
    createdAt: token.createdAt.toISOString(),
    createdBy: token.createdBy,
    issuedThrough: token.issuedThrough,
    expiresAt: token.expiresAt.toISOString(),
    lastUsedAt: token.lastUsedAt?.toISOString() ?? null,
    revokedAt: token.revokedAt?.toISOString() ?? null,
  };
}
