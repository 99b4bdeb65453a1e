import type { BankListOutcome } from '@partner-gateway/contract/admin-bank-versions';
import type { ImportReport } from '@partner-gateway/contract/admin-banks';
import type { CheckedAction } from '../../approvals/checked-action.js';
import type { BankAdmin } from '../../banks/bank-admin.js';
import { holdReason, type RemovalLimits } from '../../banks/sync/removal-guard.js';

/** An imported file as a proposal keeps it: its bytes in base64, its Content-Type and its name. */
export interface SubmittedFile {
  base64: string;
  contentType: string | undefined;
  fileName?: string;
}

/** What replacing the list takes: a list (`PUT /admin/v1/banks`) or a file (`import?mode=replace&confirm=true`). */
export interface ReplaceBanksInput {
  banks?: unknown[];
  file?: SubmittedFile;
  baseVersion?: number;
  comment?: string;
}

/** A file merged into the list (`import`, mode merge), or its curated fields set on the listed banks (mode curate). */
export interface MergeBanksInput {
  file: SubmittedFile;
  /** curate: only the listed banks' curated fields (the CSV round trip); merge when absent. */
  mode?: 'curate';
  baseVersion?: number;
  comment?: string;
}

/** A submitted file imported as `mode` (a replace is confirmed by its submission), or previewed with `dryRun`. */
function importSubmitted(banks: BankAdmin, input: MergeBanksInput, mode: 'merge' | 'replace' | 'curate', dryRun: boolean, context?: Parameters<BankAdmin['importFile']>[2]): Promise<ImportReport> {
  return banks.importFile(Buffer.from(input.file.base64, 'base64'), input.file.contentType, context, {
    mode,
    dryRun,
    ...(mode === 'replace' ? { confirm: true } : {}),
    ...(input.baseVersion !== undefined ? { baseVersion: input.baseVersion } : {}),
    ...(input.comment ? { comment: input.comment } : {}),
    ...(input.file.fileName ? { fileName: input.file.fileName } : {}),
  });
}

export interface RestoreBanksInput {
  number: number;
  baseVersion?: number;
  comment?: string;
}

/** A preview as an approver reads it: the counts and every change, by bank and field. */
export const shown = (outcome: BankListOutcome) => ({
  baseVersion: outcome.baseVersion,
  added: outcome.added.length,
  changed: outcome.changed.length,
  removed: outcome.removed.length,
  changes: outcome.changes,
});

/**
 * The bank-list actions maker-checker can hold: replacing the whole list (every curated display name, member id and
 * position the new list leaves out is gone, and banks it omits stop being offered to consumers) and restoring an
 * old version (the same, back to a past list). Both are based on the list's version: a change in between is a 409.
 */
export function bankActions(banks: BankAdmin, limits: RemovalLimits): CheckedAction[] {
  const replaceWith = (input: ReplaceBanksInput, dryRun: boolean, context?: Parameters<BankAdmin['replaceAll']>[1]): Promise<BankListOutcome | ImportReport> => {
    if (input.file) return importSubmitted(banks, { ...input, file: input.file }, 'replace', dryRun, context);
    const options = { dryRun, ...(input.baseVersion !== undefined ? { baseVersion: input.baseVersion } : {}), ...(input.comment ? { comment: input.comment } : {}) };
    return banks.replaceAll({ banks: input.banks }, context, options);
  };
  const replace: CheckedAction<ReplaceBanksInput, BankListOutcome> = {
    action: 'banks.replace',
    permission: 'banks.write',
    description: 'Replace the whole bank list (curated names, member ids and order the new list leaves out are lost)',
    async preview(input) {
      const outcome = await replaceWith(input, true);
      return { target: 'the bank list', preview: shown(outcome), base: String(outcome.baseVersion) };
    },
    async apply(input, context) {
      const outcome = await replaceWith(input, false, context);
      context.audit.details = { ...context.audit.details, version: outcome.version, baseVersion: outcome.baseVersion, added: outcome.added, changed: outcome.changed, removed: outcome.removed };
      return outcome;
    },
  };
  const restore: CheckedAction<RestoreBanksInput, BankListOutcome> = {
    action: 'banks.restore',
    permission: 'banks.write',
    description: 'Restore an earlier version of the bank list (a new version equal to it)',
    async preview({ number, baseVersion }) {
      const outcome = await banks.restore(number, undefined, { dryRun: true, ...(baseVersion !== undefined ? { baseVersion } : {}) });
      return { target: `the bank list, back to version ${number}`, preview: shown(outcome), base: String(outcome.baseVersion) };
    },
    async apply({ number, baseVersion, comment }, context) {
      const outcome = await banks.restore(number, context, { ...(baseVersion !== undefined ? { baseVersion } : {}), ...(comment ? { comment } : {}) });
      context.audit.details = { ...context.audit.details, restoredFrom: number, version: outcome.version, baseVersion: outcome.baseVersion, added: outcome.added, changed: outcome.changed, removed: outcome.removed };
      return outcome;
    },
  };
  const merge: CheckedAction<MergeBanksInput, ImportReport> = {
    action: 'banks.import',
    permission: 'banks.write',
    description: 'Merge a file into the bank list (new banks added, registry facts updated, banks that left SBP removed), or set the listed banks\' curated fields from it (mode curate)',
    guarded: true,
    async preview(input) {
      const report = await importSubmitted(banks, input, input.mode ?? 'merge', true);
      const reason = await removalHold(banks, report, limits);
      const unknown = report.unknown ? { unknown: report.unknown } : {};
      return { target: 'the bank list', preview: { received: report.received, ...shown(report), ...unknown, ...(reason ? { heldBecause: reason } : {}) }, base: String(report.baseVersion), ...(reason ? { holdReason: reason } : {}) };
    },
    async apply(input, context) {
      const mode = input.mode ?? 'merge';
      const report = await importSubmitted(banks, input, mode, false, context);
      context.audit.details = { ...context.audit.details, mode, received: report.received, version: report.version, added: report.added, changed: report.changed, removed: report.removed, ...(report.unknown ? { unknown: report.unknown } : {}) };
      return report;
    },
  };
  return [replace, restore, merge];
}

/**
 * The removal guard every bank list change but a confirmed replace or restore meets, with the sync's limits
 * (BANKS_SYNC_MAX_REMOVALS, BANKS_SYNC_MIN_BANKS): why the change must wait for a second operator, or undefined.
 */
export async function removalHold(banks: BankAdmin, outcome: BankListOutcome, limits: RemovalLimits): Promise<string | undefined> {
  if (outcome.removed.length === 0) return undefined;
  const banksAfter = (await banks.list()).length + outcome.added.length - outcome.removed.length;
  return holdReason({ removed: outcome.removed.length, banks: banksAfter }, limits) ?? undefined;
}
