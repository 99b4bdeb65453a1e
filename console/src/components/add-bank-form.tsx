import { CURATED_TEXT_FIELD_NAMES, eachCuratedText } from '@partner-gateway/contract/bank-curated-fields';
import { useState } from 'preact/hooks';
import { announce } from '../announce';
import { admin } from '../api';
import { FormAlert, TextFields } from './forms';
import { useMutation } from './use-mutation';

const BANK_FIELDS = ['bic', 'name', ...CURATED_TEXT_FIELD_NAMES] as const;
type BankFormField = (typeof BANK_FIELDS)[number];
const LABELS: Record<BankFormField, string> = { bic: 'BIC', name: 'Name', ...eachCuratedText((_field, declared) => declared.title) };
const HINTS: Record<BankFormField, string> = {
  bic: '9 digits starting with 04',
  name: 'As partners receive it',
  ...eachCuratedText((_field, declared) => (declared.description ? `Optional; ${declared.description}` : 'Optional')),
};
const NUMERIC: Record<BankFormField, boolean> = { bic: true, name: false, ...eachCuratedText((_field, declared) => declared.digits === true) };

/** Adds one bank at the end of the list. */
export function AddBankForm({ onAdded }: { onAdded: () => Promise<void> }) {
  const empty: Record<BankFormField, string> = { bic: '', name: '', ...eachCuratedText(() => '') };
  const [values, setValues] = useState(empty);
  const { busy, errors, setErrors, run } = useMutation(BANK_FIELDS, 'bic');
  async function submit(event: Event) {
    event.preventDefault();
    await run(async () => {
      const bank = await admin.banks.add({
        bic: values.bic.trim(),
        name: values.name,
        ...Object.fromEntries(CURATED_TEXT_FIELD_NAMES.filter((field) => values[field].trim()).map((field) => [field, values[field].trim()])),
      });
      setValues(empty);
      announce(`${bank.name} (${bank.bic}) was added at the end of the list.`);
      await onAdded();
    });
  }
  return (
    <section aria-labelledby="add-bank-title">
      <h2 id="add-bank-title">Add a bank</h2>
      <FormAlert errors={errors.form} title="The bank was not added" />
      <form onSubmit={submit} noValidate class="form form-row">
        <TextFields fields={BANK_FIELDS} idPrefix="bank" labels={LABELS} hints={HINTS} numeric={NUMERIC} values={values} errors={errors} onChange={setValues} />
        <div class="actions">
          <button type="submit" class="primary" disabled={busy}>
            {busy ? 'Adding…' : 'Add bank'}
          </button>
        </div>
      </form>
    </section>
  );
}
