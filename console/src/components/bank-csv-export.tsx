import type { CsvSeparator } from '@partner-gateway/contract/admin-banks';
import { useState } from 'preact/hooks';
import { admin, ApiError } from '../api';

/**
 * The first half of the CSV round trip: the published list's curated fields downloaded as `banks-v<n>.csv` (UTF-8
 * with a BOM, so that Excel reads the Cyrillic names), `;`-separated for a spreadsheet in a Russian locale if
 * chosen. Edited, it comes back through the import form's Curate mode.
 */
export function BankCsvExport() {
  const [separator, setSeparator] = useState<CsvSeparator>(';');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function download() {
    setBusy(true);
    setProblem(null);
    try {
      const file = await admin.banks.exportCsv({ separator });
      const link = document.createElement('a');
      link.href = URL.createObjectURL(new Blob([file.text], { type: 'text/csv;charset=utf-8' }));
      link.download = `banks-v${file.version ?? 'current'}.csv`;
      link.click();
      URL.revokeObjectURL(link.href);
    } catch (error) {
      setProblem(error instanceof ApiError ? error.description : String(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <div class="actions" data-testid="bank-csv-export">
      <label>
        Separator{' '}
        <select value={separator} onChange={(event) => setSeparator(event.currentTarget.value as CsvSeparator)}>
          <option value=";">; (Excel in Russian)</option>
          <option value=",">, (RFC 4180)</option>
        </select>
      </label>
      <button type="button" disabled={busy} onClick={() => void download()}>
        {busy ? 'Exporting…' : 'Export CSV for a spreadsheet'}
      </button>
      {problem && <span role="alert">{problem}</span>}
    </div>
  );
}
