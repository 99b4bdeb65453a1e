import { auditableSyncRun, type BankSyncRun } from '@partner-gateway/contract/admin-bank-sync';
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
