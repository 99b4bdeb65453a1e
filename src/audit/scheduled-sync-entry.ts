import { auditableSyncRun, type BankSyncRun } from '@partner-gateway/contract/admin-bank-sync';
import type { ParticipantsRun } from '@partner-gateway/contract/admin-bank-participants';
import type { AuditEntry } from './audit-entry.js';

/**
 * The audit entry of a scheduled sync run (a run an operator starts is audited by its request): action
 * `banks.sync`, the gateway itself as its operator, what it did in `details`.
 */
export function scheduledSyncEntry(run: BankSyncRun, at: number): AuditEntry {
  return {
    at: new Date(at),
    action: 'banks.sync',
    outcome: run.outcome === 'failed' ? 'failure' : 'success',
    status: null,
    partner: null,
    clientAddress: null,
    reason: run.outcome === 'failed' ? 'bank_sync_failed' : null,
    requestId: null,
    details: auditableSyncRun(run),
    operator: run.author,
  };
}

/** The audit entry of a scheduled participant list sync run: action `banks.participants.sync`, its counts in `details`. */
export function scheduledParticipantsEntry(run: ParticipantsRun, at: number): AuditEntry {
  const matching = run.matching;
  return {
    at: new Date(at),
    action: 'banks.participants.sync',
    outcome: run.outcome === 'failed' ? 'failure' : 'success',
    status: null,
    partner: null,
    clientAddress: null,
    reason: run.outcome === 'failed' ? 'participants_sync_failed' : null,
    requestId: null,
    details: {
      run: run.id,
      outcome: run.outcome,
      version: run.version,
      ...(run.error ? { error: run.error } : {}),
      ...(matching ? { received: matching.received, matchedByBic: matching.matchedByBic, proposals: matching.proposals.length, unmatchedParticipants: matching.unmatchedParticipants.length, unmatchedBanks: matching.unmatchedBanks.length } : {}),
    },
    operator: run.author,
  };
}
