import { ParticipantsImportQuery, ParticipantsReport, ParticipantsRun, ParticipantsStatus, ProposalDecisionBody, ProposalRejection } from './admin-bank-participants.js';
import { BankChangeQuery, BankListOutcome } from './admin-bank-versions.js';
import { adminEndpoint, type AdminFile } from './admin-endpoint.js';
import { bankChangeQuery, queryFlag, type BankChangeOptions } from './bank-change-query.js';
import {
  ADMIN_BANK_PARTICIPANTS_IMPORT_PATH,
  ADMIN_BANK_PARTICIPANTS_PATH,
  ADMIN_BANK_PARTICIPANTS_SYNC_PATH,
  ADMIN_BANK_PROPOSALS_CONFIRM_PATH,
  ADMIN_BANK_PROPOSALS_REJECT_PATH,
} from './paths.js';

const tags = ['Banks'];
const MATCHING =
  'Entries are matched by BIC first (the bank takes the member id, and the Latin name when it has none), then by the member id a bank already has, then by normalized name (legal form, quotes, case and ё aside): a name match is a proposal, applied only when an operator confirms it. ' +
  'A value an operator set is never changed (listed in keptOperatorValues); every field set records `participants` as its source. Entries and banks left unmatched are listed.';

/**
 * The settlement bank's B2C participant list (issue 34): member ids by BIC, name matches to confirm.
 *
 * @example
 * ```ts
 * const preview = await admin.bankParticipants.import(file, { dryRun: true }); // matching, proposals, unmatched
 * await admin.bankParticipants.import(file, { baseVersion: preview.baseVersion });
 * await admin.bankParticipants.confirm(preview.proposals.map((proposal) => proposal.bic));
 * ```
 */
export const BANK_PARTICIPANT_ENDPOINTS = {
  status: adminEndpoint({
    method: 'GET',
    path: ADMIN_BANK_PARTICIPANTS_PATH,
    operationId: 'getBankParticipants',
    tags,
    summary: 'The participant list: its sync settings, the latest readings with what stayed unmatched, and the name-match proposals',
    status: 200,
    answer: ParticipantsStatus,
    permission: 'read',
    cli: 'bank participants',
    send: () => ({}),
  }),
  /** Imports a JSON or CSV list; with `dryRun`, only reports what it would do. */
  import: adminEndpoint({
    method: 'POST',
    path: ADMIN_BANK_PARTICIPANTS_IMPORT_PATH,
    operationId: 'importParticipants',
    tags,
    summary: "Import the settlement bank's B2C participant list, JSON or CSV (Content-Type names it); dryRun=true previews (maker-checker action banks.participants.import)",
    description: `${MATCHING} Bad input is one 422 listing every bad entry (a 12-digit member id as a string, a name, a BIC when given, no member id or BIC twice); a list over BANKS_IMPORT_MAX_BYTES is 413, another type 415.`,
    querystring: ParticipantsImportQuery,
    file: { description: 'The list: a JSON array (or {"participants": [...]}) of {memberId, name, nameEn?, bic?}, or a CSV with memberId and name columns (nameEn, bic optional)', consumes: ['application/json', 'text/csv'] },
    status: 200,
    answer: ParticipantsReport,
    permission: 'banks.write',
    audit: 'banks.participants.import',
    checked: 'banks.participants.import',
    cli: 'bank import-participants',
    send: (file: AdminFile, options: BankChangeOptions & { dryRun?: boolean; fileName?: string } = {}) => ({
      query: { dryRun: queryFlag(options.dryRun), fileName: options.fileName, ...bankChangeQuery(options) },
      file,
    }),
  }),
  /** Reads BANKS_PARTICIPANTS_URL now. */
  sync: adminEndpoint({
    method: 'POST',
    path: ADMIN_BANK_PARTICIPANTS_SYNC_PATH,
    operationId: 'runParticipantsSync',
    tags,
    summary: 'Read the participant list at BANKS_PARTICIPANTS_URL now',
    description: `${MATCHING} A list that cannot be fetched or read changes nothing: 502 \`participants_sync_failed\`, the run recorded with its reason. 409 \`participants_sync_running\` while another run goes on; 409 \`participants_sync_not_configured\` without BANKS_PARTICIPANTS_URL.`,
    status: 200,
    answer: ParticipantsRun,
    permission: 'banks.write',
    audit: 'banks.participants.sync',
    uncheckedBecause: 'it runs now what the scheduled sync runs unasked; a name match is only proposed, applied when an operator confirms it',
    cli: 'bank sync-participants',
    send: () => ({}),
  }),
  confirm: adminEndpoint({
    method: 'POST',
    path: ADMIN_BANK_PROPOSALS_CONFIRM_PATH,
    operationId: 'confirmParticipantProposals',
    tags,
    summary: 'Confirm name-match proposals: each bank takes its member id (and Latin name when it has none) as one version (maker-checker action banks.participants.confirm)',
    description: '404 `proposal_not_pending` for a BIC without a pending proposal; nothing is changed then.',
    querystring: BankChangeQuery,
    body: ProposalDecisionBody,
    status: 200,
    answer: BankListOutcome,
    permission: 'banks.write',
    audit: 'banks.participants.confirm',
    checked: 'banks.participants.confirm',
    cli: 'bank confirm-match',
    send: (bics: string[], options: BankChangeOptions = {}) => ({ query: bankChangeQuery(options), body: { bics } }),
  }),
  reject: adminEndpoint({
    method: 'POST',
    path: ADMIN_BANK_PROPOSALS_REJECT_PATH,
    operationId: 'rejectParticipantProposals',
    tags,
    summary: 'Reject name-match proposals: kept as rejected, never proposed again for the same member id (maker-checker action banks.participants.reject)',
    body: ProposalDecisionBody,
    status: 200,
    answer: ProposalRejection,
    permission: 'banks.write',
    audit: 'banks.participants.reject',
    checked: 'banks.participants.reject',
    cli: 'bank reject-match',
    send: (bics: string[]) => ({ body: { bics } }),
  }),
};
