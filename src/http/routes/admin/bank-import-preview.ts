import type { ImportMode, ImportReport } from '../../../banks/bank-admin.js';
import { validateBankList } from '../../../banks/bank.js';
import type { StoredBank } from '../../../banks/bank-repository.js';
import { parseBankFile } from '../../../banks/import/parse-bank-file.js';
import { errors } from '../../../errors.js';

/**
 * What importing a file would do, without doing it: the same reading and checks as the import (every bad
 * entry listed in one 422), then the same comparison the registry makes when it applies a list — a BIC not
 * there is added, one whose name, English name or SBP member id differs is changed, and in `replace` mode
 * every BIC the file leaves out is removed.
 */
export function previewBankImport(bytes: Uint8Array, contentType: string | undefined, mode: ImportMode, current: readonly StoredBank[]): ImportReport {
  const parsed = parseBankFile(bytes, contentType);
  if ('problems' in parsed) throw errors.validationFailed(parsed.problems);
  if (parsed.entries.length === 0) throw errors.validationFailed([{ field: 'body', message: 'the file contains no banks' }]);
  const validated = validateBankList(parsed.entries, parsed.where);
  if ('problems' in validated) throw errors.validationFailed(validated.problems);
  const existing = new Map(current.map((bank) => [bank.bic, bank]));
  const report: ImportReport = { received: validated.banks.length, added: [], changed: [], removed: [] };
  for (const bank of validated.banks) {
    const before = existing.get(bank.bic);
    if (!before) report.added.push(bank.bic);
    else if (before.name !== bank.name || before.nameEn !== (bank.nameEn ?? null) || before.sbpMemberId !== (bank.sbpMemberId ?? null)) {
      report.changed.push(bank.bic);
    }
  }
  if (mode === 'replace') {
    const keep = new Set(validated.banks.map((bank) => bank.bic));
    report.removed = [...existing.keys()].filter((bic) => !keep.has(bic)).sort();
  }
  return report;
}
