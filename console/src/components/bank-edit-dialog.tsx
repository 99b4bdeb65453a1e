import type { AdminBank as Bank, EditBankBody } from '@partner-gateway/contract/admin-banks';
import { CURATED_TEXT_FIELD_NAMES, eachCuratedText } from '@partner-gateway/contract/bank-curated-fields';
import { useEffect, useState } from 'preact/hooks';
import { announce } from '../announce';
import { admin } from '../api';
import { ConfirmDialog } from './confirm-dialog';
import { FormAlert, noErrors, TextFields } from './forms';
import { useMutation } from './use-mutation';

const FIELDS = ['name', ...CURATED_TEXT_FIELD_NAMES, 'position'] as const;
type EditField = (typeof FIELDS)[number];
const LABELS: Record<EditField, string> = { name: 'Display name', ...eachCuratedText((_field, declared) => declared.title), position: 'Position' };
const HINTS: Record<EditField, string> = {
  name: 'What partners see',
  ...eachCuratedText((_field, declared) => (declared.description ? `${declared.description}; empty clears it` : 'Empty clears it')),
  position: '1 is first',
};
const NUMERIC: Record<EditField, boolean> = { name: false, ...eachCuratedText((_field, declared) => declared.digits === true), position: true };

/**
 * Edits one bank's curated fields (display name and CURATED_TEXT_FIELDS) and its position, applied on the
 * list's version the page was loaded at: a change by someone else in between is refused (409), never overwritten.
 */
export function BankEditDialog({ bank, baseVersion, onClose, onSaved }: { bank: Bank | null; baseVersion: number; onClose: () => void; onSaved: () => Promise<void> }) {
  const initial = (b: Bank | null): Record<EditField, string> => ({ name: b?.name ?? '', ...eachCuratedText((field) => b?.[field] ?? ''), position: String((b?.position ?? 0) + 1) });
  const [values, setValues] = useState(initial(bank));
  const { busy, errors, setErrors, run } = useMutation(FIELDS);
  useEffect(() => {
    setValues(initial(bank));
    setErrors(noErrors);
  }, [bank?.bic]);

  async function save() {
    if (!bank) return;
    const body: EditBankBody = {};
    if (values.name !== bank.name) body.name = values.name;
    for (const field of CURATED_TEXT_FIELD_NAMES) if (values[field].trim() !== (bank[field] ?? '')) body[field] = values[field].trim() || null;
    if (Number(values.position) !== bank.position + 1) body.position = Number(values.position);
    if (Object.keys(body).length === 0) return onClose();
    await run(async () => {
      const outcome = await admin.banks.edit(bank.bic, body, { baseVersion });
      announce(`${bank.name} (${bank.bic}) was saved as version ${outcome.version}.`);
      await onSaved();
      onClose();
    });
  }

  return (
    <ConfirmDialog open={bank !== null} title={`Edit ${bank?.name ?? ''} (${bank?.bic ?? ''})`} confirmLabel="Save" busy={busy} onConfirm={() => void save()} onCancel={onClose}>
      <FormAlert errors={errors.form} title="The bank was not saved" />
      {bank?.registryName && <p>Registry name: {bank.registryName}</p>}
      <TextFields fields={FIELDS} idPrefix="edit" labels={LABELS} hints={HINTS} numeric={NUMERIC} values={values} errors={errors} onChange={setValues} />
    </ConfirmDialog>
  );
}
