import type { BankSyncRun, BankSyncRunView } from '@partner-gateway/contract/admin-bank-sync';
import type { SyncRun } from './bank-sync-repository.js';

/** A stored run as the admin API lists it (without its changes). */
export function toSyncRun(run: SyncRun): BankSyncRun {
  return {
    id: run.id,
    startedAt: run.startedAt.toISOString(),
    finishedAt: run.finishedAt?.toISOString() ?? null,
    trigger: run.trigger,
    author: run.author,
    source: run.source,
    outcome: run.outcome,
    error: run.error,
    received: run.received,
    baseVersion: run.baseVersion,
    version: run.version,
    added: run.added,
    changed: run.changed,
    removed: run.removed,
    hold:
      run.holdStatus === null
        ? null
        : { reason: run.holdReason ?? '', status: run.holdStatus, decidedBy: run.decidedBy, decidedAt: run.decidedAt?.toISOString() ?? null, comment: run.decisionComment },
  };
}

/** A stored run with every change it made or would make. */
export function toSyncRunView(run: SyncRun): BankSyncRunView {
  return { ...toSyncRun(run), changes: run.changes };
}

/**
 * What a sync source's URL may show in the history, the audit trail and errors: scheme, host, port and path. The
 * query string and any credentials stay out, since a registry mirror's URL may carry an access key.
 *
 * @example
 * ```ts
 * shownSource('https://user:pw@mirror.example/ed807.zip?key=s3cr3t'); // 'https://mirror.example/ed807.zip'
 * ```
 */
export function shownSource(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
  } catch {
    return '(not a URL)';
  }
}
