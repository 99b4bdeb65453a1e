import { BANK_FIELD_LABELS, type BankFieldChange, type BankListChange } from '@partner-gateway/contract/admin-bank-versions';

/** The contract's field names, capitalized for a table cell. */
const label = (field: BankFieldChange['field']) => BANK_FIELD_LABELS[field].charAt(0).toUpperCase() + BANK_FIELD_LABELS[field].slice(1);
const KINDS: Record<BankListChange['kind'], string> = { added: 'Added', removed: 'Removed', changed: 'Changed' };

const show = (field: BankFieldChange['field'], value: BankFieldChange['old']) => (value === null ? '—' : field === 'sbpParticipant' || field === 'participantsListed' ? (value ? 'yes' : 'no') : String(value));
/** Where a new value came from, as the history names it: ` (participants, by maker-mia)`. */
const origin = (field: BankFieldChange) => (field.source ? ` (${field.source.source}, by ${field.source.by.name})` : '');

/** A bank list change's preview (src/operations/checked-actions/bank-actions.ts `shown`): counts first, then every change. */
export interface BankPreview {
  added: number;
  changed: number;
  removed: number;
  changes: BankListChange[];
  received?: number;
  heldBecause?: string;
}

export function bankPreviewOf(preview: unknown): BankPreview | undefined {
  if (preview === null || typeof preview !== 'object') return undefined;
  const candidate = preview as Partial<BankPreview>;
  return typeof candidate.added === 'number' && typeof candidate.changed === 'number' && typeof candidate.removed === 'number' && Array.isArray(candidate.changes) ? (candidate as BankPreview) : undefined;
}

/** "+3 added / ~1 changed / −12 removed": what a bank list change does, in the History tab's signs. */
export function bankCounts({ added, changed, removed }: Pick<BankPreview, 'added' | 'changed' | 'removed'>): string {
  return `+${added} added / ~${changed} changed / −${removed} removed`;
}

/**
 * Every change of a preview or a version, by bank and field, old → new: the same rows the CLI prints. Long lists
 * open collapsed, with their count.
 */
export function BankChanges({ changes, title = 'Changes', open = changes.length <= 50 }: { changes: readonly BankListChange[]; title?: string; open?: boolean }) {
  if (changes.length === 0) return <p>No change.</p>;
  return (
    <details open={open} class="bank-changes">
      <summary>
        {title} ({changes.length})
      </summary>
      <div class="table-scroll">
        <table>
          <thead>
            <tr>
              <th scope="col">Change</th>
              <th scope="col">BIC</th>
              <th scope="col">Bank</th>
              <th scope="col">Field: old → new</th>
            </tr>
          </thead>
          <tbody>
            {changes.map((change) => (
              <tr key={change.bic} class={`change-${change.kind}`}>
                <td>{KINDS[change.kind]}</td>
                <td>
                  <code>{change.bic}</code>
                </td>
                <th scope="row">{change.name}</th>
                <td>
                  <ul class="field-changes">
                    {change.fields.map((field) => (
                      <li key={field.field}>
                        {label(field.field)}: {show(field.field, field.old)} → {show(field.field, field.new)}
                        {field.source && <span class="field-source">{origin(field)}</span>}
                      </li>
                    ))}
                  </ul>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </details>
  );
}
