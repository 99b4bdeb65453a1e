import { useState } from 'preact/hooks';
import { announce } from '../announce';
import { admin } from '../api';
import { errorsFrom, Field, FormAlert, type FormErrors, noErrors } from './forms';

const BANK_FIELDS = ['bic', 'name', 'nameEn', 'sbpMemberId'] as const;

/** Adds one bank at the end of the list. */
export function AddBankForm({ onAdded }: { onAdded: () => Promise<void> }) {
  const empty = { bic: '', name: '', nameEn: '', sbpMemberId: '' };
  const [values, setValues] = useState(empty);
  const [errors, setErrors] = useState<FormErrors>(noErrors);
  const [busy, setBusy] = useState(false);
  async function submit(event: Event) {
    event.preventDefault();
    setBusy(true);
    try {
      const bank = await admin.banks.add({
        bic: values.bic.trim(),
        name: values.name,
        ...(values.nameEn.trim() ? { nameEn: values.nameEn } : {}),
        ...(values.sbpMemberId.trim() ? { sbpMemberId: values.sbpMemberId.trim() } : {}),
      });
      setErrors(noErrors);
      setValues(empty);
      announce(`${bank.name} (${bank.bic}) was added at the end of the list.`);
      await onAdded();
    } catch (error) {
      setErrors(errorsFrom(error, BANK_FIELDS, 'bic'));
    } finally {
      setBusy(false);
    }
  }
  const labels = { bic: 'BIC', name: 'Name', nameEn: 'English name', sbpMemberId: 'SBP member id' };
  const hints = { bic: '9 digits starting with 04', name: 'As partners receive it', nameEn: 'Optional', sbpMemberId: 'Optional; 12 digits' };
  return (
    <section aria-labelledby="add-bank-title">
      <h2 id="add-bank-title">Add a bank</h2>
      <FormAlert errors={errors.form} title="The bank was not added" />
      <form onSubmit={submit} noValidate class="form form-row">
        {BANK_FIELDS.map((field) => (
          <Field key={field} id={`bank-${field}`} label={labels[field]} hint={hints[field]} errors={errors.fields[field]}>
            {(control) => (
              <input
                {...control}
                spellcheck={false}
                inputMode={field === 'bic' || field === 'sbpMemberId' ? 'numeric' : undefined}
                value={values[field]}
                onInput={(event) => setValues({ ...values, [field]: event.currentTarget.value })}
              />
            )}
          </Field>
        ))}
        <div class="actions">
          <button type="submit" class="primary" disabled={busy}>
            {busy ? 'Adding…' : 'Add bank'}
          </button>
        </div>
      </form>
    </section>
  );
}
