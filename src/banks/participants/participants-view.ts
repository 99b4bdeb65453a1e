import type { ParticipantProposal, ParticipantsRun } from '@partner-gateway/contract/admin-bank-participants';
import type { ParticipantRun, StoredProposal } from './participants-repository.js';

/** A stored proposal as the admin API shows it. */
export const toProposalView = (proposal: StoredProposal): ParticipantProposal => ({
  bic: proposal.bic,
  bankName: proposal.bankName,
  memberId: proposal.memberId,
  participantName: proposal.participantName,
  participantNameEn: proposal.participantNameEn,
  status: proposal.status,
  proposedAt: proposal.proposedAt.toISOString(),
  decidedBy: proposal.decidedBy,
  decidedAt: proposal.decidedAt?.toISOString() ?? null,
});

/** A stored reading as the admin API shows it. */
export const toRunView = (run: ParticipantRun): ParticipantsRun => ({ ...run, startedAt: run.startedAt.toISOString(), finishedAt: run.finishedAt.toISOString() });

/** A URL as runs and logs show it: without its query (a token may ride there). */
export function shownUrl(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname}`;
  } catch {
    return '(not a URL)';
  }
}
