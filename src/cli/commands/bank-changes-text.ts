import { BANK_FIELD_LABELS as LABELS, type BankFieldChange, type BankListChange, type BankListOutcome } from '@partner-gateway/contract/admin-bank-versions';

const MARKS: Record<BankListChange['kind'], string> = { added: '+', removed: '-', changed: '~' };

const value = (field: BankFieldChange['field'], raw: BankFieldChange['old']) => (raw === null ? '—' : field === 'sbpParticipant' || field === 'participantsListed' ? (raw ? 'yes' : 'no') : String(raw));

/**
 * One line per bank, every field old -> new, as an operator reads a preview or a version's diff:
 * `~ 044525225 Сбербанк: registry name — -> ПАО Сбербанк`. An added bank shows what it arrives with, a removed one
 * where it was.
 *
 * @example
 * ```ts
 * changeLines([{ bic: '044525225', name: 'Сбер', kind: 'changed', fields: [{ field: 'name', old: 'Сбербанк', new: 'Сбер' }] }]);
 * // ['~ 044525225 Сбер: name Сбербанк -> Сбер']
 * ```
 */
export function changeLines(changes: readonly BankListChange[]): string[] {
  return changes.map((change) => {
    const fields =
      change.kind === 'added'
        ? change.fields.map((field) => `${LABELS[field.field]} ${value(field.field, field.new)}`)
        : change.kind === 'removed'
          ? change.fields.filter((field) => field.field === 'position').map((field) => `was at ${value(field.field, field.old)}`)
          : change.fields.map((field) => `${LABELS[field.field]} ${value(field.field, field.old)} -> ${value(field.field, field.new)}`);
    return `${MARKS[change.kind]} ${change.bic} ${change.name}: ${fields.join('; ')}`;
  });
}

/** The heading of a preview or an applied change, then its lines. */
export function outcomeText(outcome: BankListOutcome, heading: string): string {
  const counts = `${outcome.added.length} added, ${outcome.changed.length} changed, ${outcome.removed.length} removed`;
  if (outcome.changes.length === 0) return `${heading}: no change (the list stays at version ${outcome.version})`;
  return [`${heading} (${counts}):`, ...changeLines(outcome.changes)].join('\n');
}
