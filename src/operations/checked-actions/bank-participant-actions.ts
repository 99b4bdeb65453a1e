import type { ParticipantsReport, ProposalRejection } from '@partner-gateway/contract/admin-bank-participants';
import type { BankListOutcome } from '@partner-gateway/contract/admin-bank-versions';
import type { CheckedAction } from '../../approvals/checked-action.js';
import type { BankParticipants } from '../../banks/participants/bank-participants.js';
import { shown, type SubmittedFile } from './bank-actions.js';

/** A participant list imported (`POST /admin/v1/banks/participants/import`), its file as a proposal keeps it. */
export interface ImportParticipantsInput {
  file: SubmittedFile;
  baseVersion?: number;
  comment?: string;
}

/** Proposals confirmed or rejected, by their banks' BICs. */
export interface DecideProposalsInput {
  bics: string[];
  baseVersion?: number;
  comment?: string;
}

const options = (input: { baseVersion?: number; comment?: string }) => ({ ...(input.baseVersion !== undefined ? { baseVersion: input.baseVersion } : {}), ...(input.comment ? { comment: input.comment } : {}) });
const listed = (bics: readonly string[]) => (bics.length <= 5 ? bics.join(', ') : `${bics.slice(0, 5).join(', ')} and ${bics.length - 5} more`);

/** What an approver reads of an import: the version's changes and how the list matched. */
const shownReport = (report: ParticipantsReport) => ({
  ...shown(report),
  received: report.received,
  matchedByBic: report.matchedByBic,
  matchedByMemberId: report.matchedByMemberId,
  proposals: report.proposals.length,
  unmatchedParticipants: report.unmatchedParticipants.length,
  unmatchedBanks: report.unmatchedBanks.length,
  keptOperatorValues: report.keptOperatorValues,
});

/**
 * The participant list's changes as maker-checker actions, each permissioned (banks.write), previewable, able to
 * wait for a second operator and audited: an import (member ids by BIC applied, name matches proposed; guarded:
 * with BANKS_PARTICIPANTS_REQUIRED, one taking many banks from partners waits for a second operator), confirming
 * proposals (one version) and rejecting them (never proposed again for that member id).
 */
export function bankParticipantActions(participants: BankParticipants): CheckedAction[] {
  const importFile = (input: ImportParticipantsInput, dryRun: boolean, context?: Parameters<BankParticipants['importFile']>[2]) =>
    participants.importFile(Buffer.from(input.file.base64, 'base64'), input.file.contentType, context, { ...options(input), dryRun, ...(input.file.fileName ? { fileName: input.file.fileName } : {}) });
  const importList: CheckedAction<ImportParticipantsInput, ParticipantsReport> = {
    action: 'banks.participants.import',
    permission: 'banks.write',
    description: "Import the settlement bank's participant list: member ids by BIC applied, name matches proposed for confirmation",
    guarded: true,
    async preview(input) {
      const { report, holdReason } = await importFile(input, true);
      return { target: 'the bank list: participant list', preview: { ...shownReport(report), ...(holdReason ? { heldBecause: holdReason } : {}) }, base: String(report.baseVersion), ...(holdReason ? { holdReason } : {}) };
    },
    async apply(input, context) {
      const { report } = await importFile(input, false, context);
      context.audit.details = { ...context.audit.details, version: report.version, changed: report.changed, received: report.received, matchedByBic: report.matchedByBic, proposals: report.proposals.map((proposal) => proposal.bic) };
      return report;
    },
  };
  const confirm: CheckedAction<DecideProposalsInput, BankListOutcome> = {
    action: 'banks.participants.confirm',
    permission: 'banks.write',
    description: 'Confirm name matches of the participant list: the banks take the member ids (one version)',
    async preview(input) {
      const outcome = await participants.confirm(input.bics, undefined, { ...options(input), dryRun: true });
      return { target: `the bank list: confirm ${listed(input.bics)}`, preview: shown(outcome), base: String(outcome.baseVersion) };
    },
    async apply(input, context) {
      const outcome = await participants.confirm(input.bics, context, options(input));
      context.audit.details = { ...context.audit.details, version: outcome.version, confirmed: input.bics, changed: outcome.changed };
      return outcome;
    },
  };
  const reject: CheckedAction<DecideProposalsInput, ProposalRejection> = {
    action: 'banks.participants.reject',
    permission: 'banks.write',
    description: 'Reject name matches of the participant list (not proposed again for the same member id)',
    async preview(input) {
      const outcome = await participants.reject(input.bics, undefined, true);
      return { target: `participant proposals: reject ${listed(input.bics)}`, preview: outcome, base: await participants.proposalsBase() };
    },
    async apply(input, context) {
      const outcome = await participants.reject(input.bics, context);
      context.audit.details = { ...context.audit.details, rejected: outcome.changed };
      return outcome;
    },
  };
  return [importList, confirm, reject];
}
