import type { ActorRef } from '@partner-gateway/contract/admin-approvals';
import type { SsoStatusChange } from '../operators/sso/sso-sign-in.js';
import type { AuditEntry } from './audit-entry.js';

/** Who changes an operator's status when the identity provider decides it: single sign-on itself, not a person. */
export const SSO_ACTOR: ActorRef = { id: 'sso', name: 'single sign-on', credential: 'system' };

/**
 * The audit entry of an operator single sign-on disabled (its subject came back with no mapped role) or enabled
 * again: action `operator.update` by single sign-on, the operator, its issuer and subject, why, and how many of
 * its personal tokens were revoked (counted, never shown). The sign-in that caused it has its own entry
 * (`session.sign-in`, refused or not).
 */
export function ssoStatusEntry(change: SsoStatusChange, at: number): AuditEntry {
  const before = change.status === 'disabled' ? 'active' : 'disabled';
  return {
    at: new Date(at),
    action: 'operator.update',
    outcome: 'success',
    status: null,
    partner: null,
    clientAddress: null,
    reason: null,
    requestId: null,
    details: {
      id: change.operator.id,
      name: change.operator.name,
      issuer: change.issuer,
      subject: change.subject,
      why: change.reason,
      claimValues: change.claimValues,
      before: { status: before },
      after: { status: change.status },
      tokensRevoked: change.tokensRevoked,
    },
    operator: SSO_ACTOR,
  };
}
