import type { AdminBank as Bank, EditBankBody } from '@partner-gateway/contract/admin-banks';
import { useEffect, useState } from 'preact/hooks';
import { announce } from '../announce';
import { admin } from '../api';
import { ConfirmDialog } from './confirm-dialog';
import { errorsFrom, Field, FormAlert, type FormErrors, noErrors } from './forms';

const FIELDS = ['name', 'nameEn', 'sbpMemberId', 'position'] as const;
const LABELS = { name: 'Display name', nameEn: 'Latin name', sbpMemberId: 'NSPK member id', position: 'Position' };
const HINTS = { name: 'What partners see', nameEn: 'Empty clears it', sbpMemberId: '12 digits; empty clears it', position: '1 is first' };

/**
 * Edits one bank's curated fields (display name, Latin name, NSPK member id) and its position, applied on the
 * list's version the page was loaded at: a change by someone else in between is refused (409), never overwritten.
 */
export function BankEditDialog({ bank, baseVersion, onClose, onSaved }: { bank: Bank | null; baseVersion: number; onClose: () => void; onSaved: () => Promise<void> }) {
  const initial = (b: Bank | null) => ({ name: b?.name ?? '', nameEn: b?.nameEn ?? '', sbpMemberId: b?.sbpMemberId ?? '', position: String((b?.position ?? 0) + 1) });
  const [values, setValues] = useState(initial(bank));
  const [errors, setErrors] = useState<FormErrors>(noErrors);
  const [busy, setBusy] = useState(false);
  useEffect(() => {
    setValues(initial(bank));
    setErrors(noErrors);
  }, [bank?.bic]);

  async function save() {
    if (!bank) return;
    const body: EditBankBody = {};
    if (values.name !== bank.name) body.name = values.name;
    if (values.nameEn.trim() !== (bank.nameEn ?? '')) body.nameEn = values.nameEn.trim() || null;
    if (values.sbpMemberId.trim() !== (bank.sbpMemberId ?? '')) body.sbpMemberId = values.sbpMemberId.trim() || null;
    if (Number(values.position) !== bank.position + 1) body.position = Number(values.position);
    if (Object.keys(body).length === 0) return onClose();
    setBusy(true);
    try {
      const outcome = await admin.banks.edit(bank.bic, body, { baseVersion });
      announce(`${bank.name} (${bank.bic}) was saved as version ${outcome.version}.`);
      await onSaved();
      onClose();
    } catch (error) {
      setErrors(errorsFrom(error, FIELDS));
    } finally {
      setBusy(false);
    }
  }

  return (
    <ConfirmDialog open={bank !== null} title={`Edit ${bank?.name ?? ''} (${bank?.bic ?? ''})`} confirmLabel="Save" busy={busy} onConfirm={() => void save()} onCancel={onClose}>
      <FormAlert errors={errors.form} title="The bank was not saved" />
      {bank?.registryName && <p>Registry name: {bank.registryName}</p>}
      {FIELDS.map((field) => (
        <Field key={field} id={`edit-${field}`} label={LABELS[field]} hint={HINTS[field]} errors={errors.fields[field]}>
          {(control) => (
            <input
              {...control}
              spellcheck={false}
              inputMode={field === 'sbpMemberId' || field === 'position' ? 'numeric' : undefined}
              value={values[field]}
              onInput={(event) => setValues({ ...values, [field]: event.currentTarget.value })}
            />
          )}
        </Field>
      ))}
    </ConfirmDialog>
  );
}
