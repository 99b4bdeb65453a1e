import { useMemo, useState } from 'preact/hooks';
import { announce } from '../announce';
import type { AdminBank as Bank, ImportReport } from '@partner-gateway/contract/admin-banks';
import { importContentType } from '@partner-gateway/contract/import-media-types';
import { admin, ApiError } from '../api';
import { ConfirmDialog } from '../components/confirm-dialog';
import { describeProblem } from '@partner-gateway/contract/error-body';
import { errorsFrom, Field, FormAlert, type FormErrors, noErrors } from '../components/forms';
import { LoadState, PageTitle, useLoad } from '../components/page';

/** The bank list partners receive, in its order: reorder, add, remove, and import a file with a preview. */
export function BanksPage() {
  const banks = useLoad(() => admin.banks.list().then((body) => body.banks), 'banks');
  return (
    <>
      <PageTitle title="Banks" />
      <p>Partners receive this list, in this order, from the banks operation.</p>
      <ImportForm current={banks.data ?? []} onImported={banks.reload} />
      <AddBankForm onAdded={banks.reload} />
      <LoadState loaded={banks} what="banks" />
      {banks.data && <BankList key={banks.data.map((bank) => `${bank.bic}:${bank.name}`).join('|')} banks={banks.data} onChanged={banks.reload} />}
    </>
  );
}

function BankList({ banks, onChanged }: { banks: Bank[]; onChanged: () => Promise<void> }) {
  const [order, setOrder] = useState(banks);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string[]>([]);
  const [removing, setRemoving] = useState<Bank | null>(null);
  const moved = order.some((bank, index) => bank.bic !== banks[index]?.bic);

  function move(index: number, by: number) {
    const target = index + by;
    if (target < 0 || target >= order.length) return;
    const next = [...order];
    [next[index], next[target]] = [next[target]!, next[index]!];
    setOrder(next);
    // Keep the focus on the same bank's button, now on its new row.
    requestAnimationFrame(() => document.getElementById(`move-${by < 0 ? 'up' : 'down'}-${next[target]!.bic}`)?.focus());
  }

  async function saveOrder() {
    setBusy(true);
    setError([]);
    try {
      await admin.banks.replace( order.map(({ bic, name, nameEn, sbpMemberId }) => ({ bic, name, nameEn, sbpMemberId })));
      announce('The new bank order was saved.');
      await onChanged();
    } catch (failure) {
      setError(errorsFrom(failure, []).form);
    } finally {
      setBusy(false);
    }
  }

  async function remove(bank: Bank) {
    setBusy(true);
    setError([]);
    try {
      await admin.banks.remove(bank.bic);
      announce(`${bank.name} (${bank.bic}) was removed from the list.`);
      await onChanged();
    } catch (failure) {
      setError(errorsFrom(failure, []).form);
    } finally {
      setBusy(false);
      setRemoving(null);
    }
  }

  return (
    <section aria-labelledby="bank-list-title">
      <h2 id="bank-list-title">The list ({banks.length})</h2>
      <FormAlert errors={error} title="The list was not changed" />
      {moved && (
        <div class="notice unsaved" role="status">
          <p>The order has changed and is not saved yet.</p>
          <div class="actions">
            <button type="button" class="primary" disabled={busy} onClick={() => void saveOrder()}>
              {busy ? 'Saving…' : 'Save order'}
            </button>
            <button type="button" disabled={busy} onClick={() => setOrder(banks)}>
              Discard changes
            </button>
          </div>
        </div>
      )}
      <div class="table-scroll">
        <table class="banks">
          <caption class="visually-hidden">Banks in the order partners receive them</caption>
          <thead>
            <tr>
              <th scope="col">#</th>
              <th scope="col">BIC</th>
              <th scope="col">Name</th>
              <th scope="col">English name</th>
              <th scope="col">SBP member id</th>
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {order.map((bank, index) => (
              <tr key={bank.bic}>
                <td>{index + 1}</td>
                <td>
                  <code>{bank.bic}</code>
                </td>
                <th scope="row">{bank.name}</th>
                <td>{bank.nameEn ?? '—'}</td>
                <td>{bank.sbpMemberId ?? '—'}</td>
                <td class="row-actions">
                  <button type="button" id={`move-up-${bank.bic}`} class="icon" disabled={index === 0} aria-label={`Move ${bank.name} up`} onClick={() => move(index, -1)}>
                    ↑
                  </button>
                  <button
                    type="button"
                    id={`move-down-${bank.bic}`}
                    class="icon"
                    disabled={index === order.length - 1}
                    aria-label={`Move ${bank.name} down`}
                    onClick={() => move(index, 1)}
                  >
                    ↓
                  </button>
                  <button type="button" class="danger-quiet" aria-label={`Remove ${bank.name}`} onClick={() => setRemoving(bank)}>
                    Remove
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <ConfirmDialog
        open={removing !== null}
        title={`Remove ${removing?.name ?? ''}?`}
        confirmLabel="Remove"
        danger
        busy={busy}
        onConfirm={() => removing && void remove(removing)}
        onCancel={() => setRemoving(null)}
      >
        <p>Partners stop receiving {removing?.bic} from their next banks call.</p>
      </ConfirmDialog>
    </section>
  );
}

const BANK_FIELDS = ['bic', 'name', 'nameEn', 'sbpMemberId'] as const;

function AddBankForm({ onAdded }: { onAdded: () => Promise<void> }) {
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

interface Preview {
  file: File;
  contentType: string;
  mode: 'replace' | 'merge';
  report: ImportReport;
}

/**
 * Import in two steps: the file goes to the gateway as a dry run (`?dryRun=true`), which reads and checks it
 * exactly as the import would and lists every bad row, or says what would change; only then can it be applied.
 */
function ImportForm({ current, onImported }: { current: Bank[]; onImported: () => Promise<void> }) {
  const [file, setFile] = useState<File | null>(null);
  const [mode, setMode] = useState<'replace' | 'merge'>('replace');
  const [errors, setErrors] = useState<FormErrors>(noErrors);
  const [rowErrors, setRowErrors] = useState<string[]>([]);
  const [preview, setPreview] = useState<Preview | null>(null);
  const [busy, setBusy] = useState(false);
  // A file input cannot be emptied from script; a new key gives a new, empty one.
  const [fileKey, setFileKey] = useState(0);
  const names = useMemo(() => new Map(current.map((bank) => [bank.bic, bank.name])), [current]);

  async function send(dryRun: boolean, chosen: File, contentType: string, chosenMode: 'replace' | 'merge'): Promise<ImportReport> {
    return admin.banks.import({ bytes: await chosen.arrayBuffer(), contentType }, { mode: chosenMode, dryRun });
  }

  async function previewFile(event: Event) {
    event.preventDefault();
    setPreview(null);
    setRowErrors([]);
    if (!file) {
      setErrors({ fields: { file: ['Choose a file to import.'] }, form: [] });
      return;
    }
    const contentType = importContentType(file.name);
    if (!contentType) {
      setErrors({ fields: { file: ['Choose a .json, .csv or .xml (ED807) file.'] }, form: [] });
      return;
    }
    setErrors(noErrors);
    setBusy(true);
    try {
      setPreview({ file, contentType, mode, report: await send(true, file, contentType, mode) });
    } catch (error) {
      if (error instanceof ApiError && error.problems.length > 0) {
        setErrors({ fields: { file: [`${file.name} has ${error.problems.length} problem${error.problems.length === 1 ? '' : 's'}; nothing was changed.`] }, form: [] });
        setRowErrors(error.problems.map((problem) => describeProblem(problem)));
      } else {
        setErrors({ fields: { file: [error instanceof ApiError ? error.description : String(error)] }, form: [] });
      }
    } finally {
      setBusy(false);
    }
  }

  async function apply() {
    if (!preview) return;
    setBusy(true);
    try {
      const report = await send(false, preview.file, preview.contentType, preview.mode);
      setPreview(null);
      setFile(null);
      setFileKey(fileKey + 1);
      announce(`Imported ${report.received} banks: ${report.added.length} added, ${report.changed.length} changed, ${report.removed.length} removed.`);
      await onImported();
    } catch (error) {
      setErrors(errorsFrom(error, []));
    } finally {
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby="import-title">
      <h2 id="import-title">Import a file</h2>
      <p>
        JSON (<code>{'{"banks": [{"bic", "name"}]}'}</code> or a bare array), CSV with a <code>bic,name</code> header, or the Bank of Russia's ED807
        directory (XML). You see what would change, and every bad row, before anything is applied.
      </p>
      <FormAlert errors={errors.form} title="The import failed" />
      <form onSubmit={previewFile} noValidate class="form">
        <Field key={fileKey} id="import-file" label="File" errors={errors.fields.file}>
          {(control) => (
            <input
              {...control}
              type="file"
              accept=".json,.csv,.xml,application/json,text/csv,application/xml,text/xml"
              onChange={(event) => {
                setFile(event.currentTarget.files?.[0] ?? null);
                setPreview(null);
                setRowErrors([]);
                setErrors(noErrors);
              }}
            />
          )}
        </Field>
        <fieldset>
          <legend>Mode</legend>
          <label class="choice">
            <input type="radio" name="import-mode" value="replace" checked={mode === 'replace'} onChange={() => (setMode('replace'), setPreview(null))} /> Replace: the
            list becomes exactly the file, in its order
          </label>
          <label class="choice">
            <input type="radio" name="import-mode" value="merge" checked={mode === 'merge'} onChange={() => (setMode('merge'), setPreview(null))} /> Merge: add new
            banks at the end and update known ones; remove nothing
          </label>
        </fieldset>
        <div class="actions">
          <button type="submit" disabled={busy}>
            {busy && !preview ? 'Checking…' : 'Preview import'}
          </button>
        </div>
      </form>
      {rowErrors.length > 0 && (
        <div class="alert" role="alert" aria-labelledby="row-errors-title">
          <p class="alert-title" id="row-errors-title">
            Every problem in the file ({rowErrors.length})
          </p>
          <ul class="row-errors">
            {rowErrors.map((message) => (
              <li>{message}</li>
            ))}
          </ul>
        </div>
      )}
      {preview && (
        <div class="preview" role="region" aria-labelledby="preview-title">
          <h3 id="preview-title">
            Preview of {preview.file.name} ({preview.mode})
          </h3>
          <p data-testid="import-summary">
            {preview.report.received} banks in the file: {preview.report.added.length} to add, {preview.report.changed.length} to change,{' '}
            {preview.report.removed.length} to remove.
          </p>
          <ChangeList title="To add" bics={preview.report.added} names={names} />
          <ChangeList title="To change" bics={preview.report.changed} names={names} />
          <ChangeList title="To remove" bics={preview.report.removed} names={names} />
          <div class="actions">
            <button type="button" class="primary" disabled={busy} onClick={() => void apply()}>
              {busy ? 'Importing…' : 'Apply import'}
            </button>
            <button type="button" disabled={busy} onClick={() => setPreview(null)}>
              Cancel
            </button>
          </div>
        </div>
      )}
    </section>
  );
}

function ChangeList({ title, bics, names }: { title: string; bics: string[]; names: Map<string, string> }) {
  if (bics.length === 0) return null;
  return (
    <details open={bics.length <= 10}>
      <summary>
        {title} ({bics.length})
      </summary>
      <ul class="bic-list">
        {bics.map((bic) => (
          <li key={bic}>
            <code>{bic}</code> {names.get(bic) ?? ''}
          </li>
        ))}
      </ul>
    </details>
  );
}
