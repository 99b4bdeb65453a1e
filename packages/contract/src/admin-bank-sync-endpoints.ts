import { BankSyncDecisionQuery, BankSyncPreview, BankSyncRun, BankSyncRunParams, BankSyncRunView, BankSyncStatus } from './admin-bank-sync.js';
import { adminEndpoint } from './admin-endpoint.js';
import { ADMIN_BANK_SYNC_APPROVE_PATH, ADMIN_BANK_SYNC_PATH, ADMIN_BANK_SYNC_PREVIEW_PATH, ADMIN_BANK_SYNC_REJECT_PATH } from './paths.js';

const tags = ['Banks'];
const DECIDED = 'it is the operator\'s decision on a run the removal guard held';

/**
 * The registry sync (BANKS_SYNC_URL).
 *
 * @example
 * ```ts
 * const preview = await admin.bankSync.preview(); // every change, and holdReason when the guard would hold it
 * const run = await admin.bankSync.run(); // { outcome: 'applied', version: 9, ... }
 * const { pending } = await admin.bankSync.status();
 * if (pending) await admin.bankSync.approve(pending.id, 'the registry really dropped them');
 * ```
 */
export const BANK_SYNC_ENDPOINTS = {
  status: adminEndpoint({
    method: 'GET',
    path: ADMIN_BANK_SYNC_PATH,
    operationId: 'getBankSync',
    tags,
    summary: 'The registry sync: its settings, the last runs, and the held run waiting for a decision',
    status: 200,
    answer: BankSyncStatus,
    permission: 'read',
    cli: 'bank sync-status',
    send: () => ({}),
  }),
  preview: adminEndpoint({
    method: 'POST',
    path: ADMIN_BANK_SYNC_PREVIEW_PATH,
    operationId: 'previewBankSync',
    tags,
    summary: 'What a registry sync would do now, bank by bank and field by field, and whether the removal guard would hold it; nothing changes',
    description: 'Downloads BANKS_SYNC_URL and merges it with the current list without saving anything (the audit trail records the dry run). 502 `bank_sync_failed` when the source cannot be fetched or read.',
    status: 200,
    answer: BankSyncPreview,
    permission: 'banks.write',
    audit: 'banks.sync',
    changesNothing: true,
    cli: 'bank sync',
    send: () => ({}),
  }),
  run: adminEndpoint({
    method: 'POST',
    path: ADMIN_BANK_SYNC_PATH,
    operationId: 'runBankSync',
    tags,
    summary: 'Run the registry sync now (POST /admin/v1/banks/sync/preview shows first what it would do)',
    description:
      'Downloads BANKS_SYNC_URL (an ED807 directory, XML or ZIP) and merges it as every registry import does: new SBP head offices appended, registry facts updated, banks that left SBP removed, curated fields of the banks that stay untouched. ' +
      'Answers the run: `applied` (a new version), `held` (more than BANKS_SYNC_MAX_REMOVALS removals, or fewer than BANKS_SYNC_MIN_BANKS banks left: approve or reject it), or `unchanged`. ' +
      'A source that cannot be fetched or read changes nothing: 502 `bank_sync_failed`, the run recorded with its reason. 409 `bank_sync_running` while another run goes on; 409 `bank_sync_not_configured` without BANKS_SYNC_URL.',
    status: 200,
    answer: BankSyncRunView,
    permission: 'banks.write',
    audit: 'banks.sync',
    uncheckedBecause: 'it runs now what the scheduled sync runs unasked; the removal guard holds a run that removes too many banks for a decision',
    cli: 'bank sync',
    send: () => ({}),
  }),
  approve: adminEndpoint({
    method: 'POST',
    path: ADMIN_BANK_SYNC_APPROVE_PATH,
    operationId: 'approveBankSync',
    tags,
    summary: 'Approve a held sync run: applied exactly as previewed, as a new version (409 bank_list_changed if the list changed since it was held)',
    params: BankSyncRunParams,
    querystring: BankSyncDecisionQuery,
    status: 200,
    answer: BankSyncRunView,
    permission: 'banks.write',
    audit: 'banks.sync.approve',
    uncheckedBecause: DECIDED,
    cli: 'bank pending',
    send: (id: number, comment?: string) => ({ params: { id: String(id) }, query: { comment } }),
  }),
  reject: adminEndpoint({
    method: 'POST',
    path: ADMIN_BANK_SYNC_REJECT_PATH,
    operationId: 'rejectBankSync',
    tags,
    summary: 'Reject a held sync run: nothing changes',
    params: BankSyncRunParams,
    querystring: BankSyncDecisionQuery,
    status: 200,
    answer: BankSyncRun,
    permission: 'banks.write',
    audit: 'banks.sync.reject',
    uncheckedBecause: DECIDED,
    cli: 'bank pending',
    send: (id: number, comment?: string) => ({ params: { id: String(id) }, query: { comment } }),
  }),
};
