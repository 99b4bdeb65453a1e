import type { AdminBank as Bank, ImportMode, ImportReport } from '@partner-gateway/contract/admin-banks';
import { describeProblem } from '@partner-gateway/contract/error-body';
import { importContentType } from '@partner-gateway/contract/import-media-types';
import { useState } from 'preact/hooks';
import { announce } from '../announce';
import { admin, ApiError, ProposedChange } from '../api';
import { BankChanges } from './bank-changes';
import { BankCsvExport } from './bank-csv-export';
import { errorsFrom, Field, FormAlert, noErrors } from './forms';
import { useMutation } from './use-mutation';

interface Preview {
  file: File;
  contentType: string;
  mode: ImportMode;
  report: ImportReport;
}

/**
 * Import in two steps: the file goes to the gateway as a dry run (`?dryRun=true`), which reads and checks it
 * exactly as the import would and lists every bad row, or every change by bank and field, old → new; only then can
 * it be applied, on the version the preview was made on (a change in between is refused, never overwritten).
 * Merging is the default; replacing the whole list needs its own confirmation.
 */
export function ImportForm({ onImported }: { current: Bank[]; onImported: () => Promise<void> }) {
  const [file, setFile] = useState<File | null>(null);
  const [mode, setMode] = useState<ImportMode>('merge');
  const [confirmed, setConfirmed] = useState(false);
  const { busy, errors, setErrors, run } = useMutation();
  const [rowErrors, setRowErrors] = useState<string[]>([]);
  const [preview, setPreview] = useState<Preview | null>(null);
  // A file input cannot be emptied from script; a new key gives a new, empty one.
  const [fileKey, setFileKey] = useState(0);

  async function send(dryRun: boolean, chosen: File, contentType: string, chosenMode: ImportMode, baseVersion?: number): Promise<ImportReport> {
    return admin.banks.import(
      { bytes: await chosen.arrayBuffer(), contentType },
      { mode: chosenMode, dryRun, fileName: chosen.name, ...(chosenMode === 'replace' ? { confirm: true } : {}), ...(baseVersion !== undefined ? { baseVersion } : {}) },
    );
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
    await run(
      async () => setPreview({ file, contentType, mode, report: await send(true, file, contentType, mode) }),
      undefined,
      (error) => {
        if (!(error instanceof ApiError && error.problems.length > 0)) return { fields: { file: [error instanceof ApiError ? error.description : String(error)] }, form: [] };
        setRowErrors(error.problems.map((problem) => describeProblem(problem)));
        return { fields: { file: [`${file.name} has ${error.problems.length} problem${error.problems.length === 1 ? '' : 's'}; nothing was changed.`] }, form: [] };
      },
    );
  }

  async function apply() {
    if (!preview) return;
    if (preview.mode === 'replace' && !confirmed) {
      setErrors({ fields: {}, form: ['Tick the confirmation: replacing drops every curated name, member id and position the file does not have.'] });
      return;
    }
    await run(
      async () => {
        const report = await send(false, preview.file, preview.contentType, preview.mode, preview.report.baseVersion);
        setPreview(null);
        setFile(null);
        setFileKey(fileKey + 1);
        setConfirmed(false);
        announce(`Imported ${report.received} banks: ${report.added.length} added, ${report.changed.length} changed, ${report.removed.length} removed (version ${report.version}).`);
        await onImported();
      },
      undefined,
      (error) => {
        // Held for approval: the preview is now the proposal's, under Approvals.
        if (error instanceof ProposedChange) setPreview(null);
        return errorsFrom(error, []);
      },
    );
  }

  return (
    <section aria-labelledby="import-title">
      <h2 id="import-title">Import a file</h2>
      <p>
        JSON (<code>{'{"banks": [{"bic", "name"}]}'}</code> or a bare array), CSV with a <code>bic,name</code> header, or the Bank of Russia's ED807
        directory (XML). You see what would change, and every bad row, before anything is applied. To edit many banks' names and member ids at
        once, export the list, edit it in a spreadsheet and import it back in the Curate mode.
      </p>
      <BankCsvExport />
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
            <input type="radio" name="import-mode" value="merge" checked={mode === 'merge'} onChange={() => (setMode('merge'), setPreview(null))} /> Merge (the
            default): curated names, member ids and order stay; an ED807 directory adds new SBP banks at the end and removes banks that left SBP
          </label>
          <label class="choice">
            <input type="radio" name="import-mode" value="replace" checked={mode === 'replace'} onChange={() => (setMode('replace'), setPreview(null))} /> Replace: the
            list becomes exactly the file, in its order (needs a confirmation)
          </label>
          <label class="choice">
            <input type="radio" name="import-mode" value="curate" checked={mode === 'curate'} onChange={() => (setMode('curate'), setPreview(null))} /> Curate:
            only the names, Latin names and member ids of banks already listed (an edited export); rows of other BICs are listed, never added
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
          {preview.report.unknown && preview.report.unknown.length > 0 && (
            <p data-testid="import-unknown">
              Not in the list, not added ({preview.report.unknown.length}): {preview.report.unknown.join(', ')}
            </p>
          )}
          <BankChanges changes={preview.report.changes} title={`Every change against version ${preview.report.baseVersion}`} />
          {preview.mode === 'replace' && (
            <label class="choice">
              <input type="checkbox" checked={confirmed} onChange={(event) => setConfirmed(event.currentTarget.checked)} /> I confirm replacing the whole list
            </label>
          )}
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
