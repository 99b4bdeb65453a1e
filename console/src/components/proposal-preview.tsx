import type { ProposalView } from '@partner-gateway/contract/admin-approvals';
import { AuditDetails, diff, flatten } from './audit-details';
import { BankChanges, bankCounts, bankPreviewOf } from './bank-changes';

/**
 * What approving a proposal will do, as a person reads it: a bank list change as the History tab's diff with its
 * counts first; a change of something (before and after: a partner as it is and as it will be, say) as a field list,
 * before → after; anything else (what is created, removed or revoked) as labelled values.
 */
export function ProposalPreview({ proposal }: { proposal: ProposalView }) {
  const bank = bankPreviewOf(proposal.preview);
  if (bank) {
    return (
      <div class="proposal-preview">
        <p class="change-counts" data-testid="proposal-counts">
          <strong>{bankCounts(bank)}</strong>
          {bank.received !== undefined && <span class="muted"> ({bank.received} banks in the file)</span>}
        </p>
        {bank.heldBecause && <p class="hint">Held because {bank.heldBecause}.</p>}
        <BankChanges changes={bank.changes} title="Changes it applies" />
      </div>
    );
  }
  const preview = (proposal.preview ?? {}) as Record<string, unknown>;
  if ('before' in preview && 'after' in preview) {
    const { before, after, ...rest } = preview;
    return (
      <>
        <FieldChanges rows={diff(before, after).changed} />
        {Object.keys(rest).length > 0 && <AuditDetails details={rest} />}
      </>
    );
  }
  return <AuditDetails details={preview} />;
}

function FieldChanges({ rows }: { rows: Array<{ field: string; before: string; after: string }> }) {
  if (rows.length === 0) return <p class="muted">It changes nothing that is shown.</p>;
  return (
    <ul class="field-changes proposal-fields" data-testid="proposal-fields">
      {rows.map((row) => (
        <li key={row.field}>
          <strong>{row.field}</strong>: {row.before} → {row.after}
        </li>
      ))}
    </ul>
  );
}

/** One sentence of what approving applies, for the confirmation. */
export function applySummary(proposal: ProposalView): string {
  const bank = bankPreviewOf(proposal.preview);
  if (bank) return `${proposal.target}: ${bankCounts(bank)}.`;
  const preview = (proposal.preview ?? {}) as Record<string, unknown>;
  if ('before' in preview && 'after' in preview) return `${proposal.target}: ${diff(preview.before, preview.after).changed.length} field(s) change.`;
  return `${proposal.action} of ${proposal.target} (${flatten(preview).length} values as shown).`;
}
