import type { AdminBank, CsvSeparator, EditBankBody, ImportMode, ImportReport } from '@partner-gateway/contract/admin-banks';
import type { BankListOutcome, BankVersionPage, BankVersionView } from '@partner-gateway/contract/admin-bank-versions';
import { errors, type AppError } from '../errors.js';
import type { RequestContext } from '../request-context.js';
import { validateBank, validateBankList, type Bank } from './bank.js';
import { addBank, curateFile, editBank, mergeFile, onlyMoves, removeBank, replaceList } from './bank-list-edits.js';
import { bankListCsv, type BankListCsv } from './bank-list-csv.js';
import { authorOf, type BankListService, type ListBuilder } from './bank-list-service.js';
import { readBanks } from './bank-repository.js';
import type { BankVersionRepository } from './bank-version-repository.js';
import { toVersionSummary } from './bank-version-view.js';
import type { BankFileReader } from './import/bank-file-reader.js';
import { mergeRegistry } from './merge-registry.js';
import { fieldSource, withSources } from './field-sources.js';
import type { BankFieldOrigin } from '@partner-gateway/contract/admin-bank-versions';
import { CURATED_BANK_FIELDS, curatedTextOf } from '@partner-gateway/contract/bank-curated-fields';
import type { RegistryAdmission } from './admission/bank-admissions.js';
import type { Kysely } from 'kysely';
import type { Database } from '../db/schema.js';

/** Every change's optional checks and notes: the version it was previewed on, and a comment for the history. */
export interface ChangeOptions {
  baseVersion?: number;
  comment?: string;
  /** What the change would do, nothing changed (maker-checker's preview). */
  dryRun?: boolean;
}

export interface ImportOptions extends ChangeOptions {
  /** `merge` unless said otherwise; `replace` needs `confirm`. */
  mode?: ImportMode;
  confirm?: boolean;
  fileName?: string;
}

/**
 * The bank list's write side, as the admin API uses it. Every change is a new version (see BankListService),
 * answered with every change it made by bank and field; a list with any bad entry is refused whole, with every
 * problem listed, and nothing changes.
 */
export interface BankAdmin {
  list(): Promise<AdminBank[]>;
  /** The current version's number (0 before the first start made version 1). */
  currentVersion(): Promise<number>;
  /** The whole list replaced (the explicit, confirmed action; maker-checker `banks.replace`). */
  replaceAll(input: unknown, context?: RequestContext, options?: ChangeOptions): Promise<BankListOutcome>;
  /** The bank as stored (null on a dry run) and the new version. */
  add(input: unknown, context: RequestContext | undefined, options?: ChangeOptions): Promise<{ bank: AdminBank | null; outcome: BankListOutcome }>;
  remove(bic: string, context: RequestContext | undefined, options?: ChangeOptions): Promise<BankListOutcome>;
  /** Curated fields and the position (move-to-position) of one bank. */
  edit(bic: string, body: EditBankBody, context: RequestContext | undefined, options?: ChangeOptions): Promise<BankListOutcome>;
  /** The published list's curated fields as CSV (the export half of the round trip; mode=curate imports it back). */
  exportCsv(separator?: CsvSeparator): Promise<BankListCsv>;
  /** A JSON, CSV or ED807 file, merged by default (curate: listed banks' curated fields only); `dryRun` previews, changing nothing. */
  importFile(bytes: Uint8Array, contentType: string | undefined, context: RequestContext | undefined, options?: ImportOptions): Promise<ImportReport>;
  versions(cursor: number | undefined, limit: number): Promise<BankVersionPage>;
  version(number: number): Promise<BankVersionView>;
  /** A new version equal to version `number` (maker-checker `banks.restore`); `dryRun` previews. */
  restore(number: number, context: RequestContext | undefined, options?: ChangeOptions): Promise<BankListOutcome>;
  /**
   * The 422 the bank checks give a body (`list`: PUT's `{banks}`, `one`: POST's bank), or undefined when they find
   * nothing wrong: the routes word a body their schema refused with it, every bad entry listed as the checks say.
   */
  refusal(input: unknown, shape: 'list' | 'one'): AppError | undefined;
}

export function createBankAdmin(db: Kysely<Database>, lists: BankListService, versions: BankVersionRepository, reader: BankFileReader, admission: RegistryAdmission): BankAdmin {
  // Every field a change sets records its source: the operator who made it, or the registry for a directory's facts.
  const run = (build: ListBuilder, context: RequestContext | undefined, options: ChangeOptions, source: Parameters<BankListService['apply']>[1]['source'], extra: { fileName?: string; origin?: BankFieldOrigin } = {}) => {
    const stamped = withSources(build, fieldSource(extra.origin ?? 'operator', authorOf(context).author));
    return options.dryRun
      ? lists.preview(stamped, options.baseVersion)
      : lists.apply(stamped, { ...options, source, ...authorOf(context), comment: options.comment ?? null, fileName: extra.fileName ?? null });
  };
  const toAdmin = (bank: Awaited<ReturnType<typeof readBanks>>[number]): AdminBank => ({ ...bank, sources: bank.sources ?? {}, updatedAt: bank.updatedAt.toISOString() });
  /** mode=curate: a JSON or CSV file's curated fields on the listed banks, one version; other BICs reported. */
  async function curate(bytes: Uint8Array, contentType: string | undefined, context: RequestContext | undefined, options: ImportOptions): Promise<ImportReport> {
    const file = await reader.importFile(bytes, contentType);
    if (file.kind === 'registry') throw errors.validationFailed([{ field: 'mode', message: 'curate takes a JSON or CSV file of curated fields; a Bank of Russia directory is merged (mode=merge)' }]);
    let unknown: string[] = [];
    const build: ListBuilder = (current) => {
      const curated = curateFile(current, file.rows);
      unknown = curated.unknown;
      return curated;
    };
    const outcome = await run(build, context, options, 'import', options.fileName ? { fileName: options.fileName } : {});
    return { received: file.received, ...outcome, unknown };
  }
  return {
    list: async () => (await readBanks(db)).map(toAdmin),
    currentVersion: async () => (await lists.current()).version,
    async replaceAll(input, context, options = {}) {
      const checked = checkList(input);
      if (checked instanceof Error) throw checked;
      const rows = checked.map((bank) => ({ bic: bank.bic, name: bank.name, ...curatedTextOf(bank) }));
      const build: ListBuilder = (current) => replaceList(current, rows);
      return run(build, context, options, 'replace');
    },
    async add(input, context, options = {}) {
      const result = checkOne(input);
      if (result instanceof Error) throw result;
      const bank = { bic: result.bic, name: result.name, ...curatedTextOf(result) };
      const outcome = await run((current) => addBank(current, bank), context, options, 'add');
      if (options.dryRun) return { bank: null, outcome };
      const stored = (await readBanks(db)).find((row) => row.bic === bank.bic)!;
      return { bank: toAdmin(stored), outcome };
    },
    remove: (bic, context, options = {}) => run((current) => removeBank(current, readableBic(bic)), context, options, 'remove'),
    edit(bic, body, context, options = {}) {
      readableBic(bic);
      // The same checks as an added bank's (trimmed, no control characters, a 12-digit member id).
      const checked = validateBank({ ...body, bic, name: body.name ?? 'unchanged' }, 'body');
      if ('problems' in checked) throw errors.validationFailed(checked.problems.map(stripBodyPrefix));
      // The values as checked (trimmed; empty is null), for the fields the body sets.
      const set = CURATED_BANK_FIELDS.filter((field) => body[field] !== undefined).map((field) => [field, checked.bank[field] ?? null]);
      const input = { ...body, ...Object.fromEntries(set) };
      return run((current) => editBank(current, { bic, ...input }), context, options, (changes) => (onlyMoves(changes) ? 'reorder' : 'edit'));
    },
    async exportCsv(separator) {
      const { version, list } = await lists.current();
      return bankListCsv(version, list, separator);
    },
    async importFile(bytes, contentType, context, options = {}) {
      const mode = options.mode ?? 'merge';
      if (mode === 'curate') return curate(bytes, contentType, context, options);
      if (mode === 'replace' && !options.confirm && !options.dryRun) {
        throw errors.validationFailed([{ field: 'confirm', message: 'replacing the whole list must be confirmed: add confirm=true (the default, merge, keeps curated fields)' }]);
      }
      const file = await reader.importFile(bytes, contentType);
      // A registry merge publishes no new bank unless BANKS_AUTO_ADMIT: they wait in the admission queue.
      const registryMerge = file.kind === 'registry' && mode === 'merge';
      const publishNow = registryMerge ? await admission.publishNow() : undefined;
      const build: ListBuilder =
        file.kind === 'registry'
          ? mode === 'merge'
            ? (current) => mergeRegistry(current, file.entries, publishNow)
            : (current) => replaceList(current, file.entries.filter((entry) => entry.sbpParticipant).map((entry) => ({ bic: entry.bic, name: entry.registryName, nameEn: entry.nameEn })))
          : mode === 'merge'
            ? (current) => mergeFile(current, file.rows)
            : (current) => replaceList(current, file.rows);
      const outcome = await run(build, context, options, mode === 'replace' ? 'replace' : 'import', {
        ...(options.fileName ? { fileName: options.fileName } : {}),
        origin: file.kind === 'registry' ? 'registry' : 'operator',
      });
      if (file.kind !== 'registry' || mode !== 'merge') return { received: file.received, ...outcome };
      if (!options.dryRun) await admission.observe(file.entries);
      const listed = new Set([...(await lists.current()).list.map((bank) => bank.bic), ...outcome.added]);
      return { received: file.received, ...outcome, queued: file.entries.filter((entry) => entry.sbpParticipant && !listed.has(entry.bic)).length };
    },
    async versions(cursor, limit) {
      const page = await versions.page(cursor, limit + 1);
      const shown = page.slice(0, limit);
      return { versions: shown.map(toVersionSummary), nextCursor: page.length > limit ? String(shown.at(-1)!.number) : null };
    },
    async version(number) {
      const version = await versions.get(number);
      if (!version) throw errors.bankVersionNotFound(number);
      return { ...toVersionSummary(version), list: version.list, changes: version.changes };
    },
    restore(number, context, options = {}) {
      if (options.dryRun) return lists.previewRestore(number, options.baseVersion);
      return lists.restore(number, { baseVersion: options.baseVersion, ...authorOf(context), comment: options.comment ?? null });
    },
    refusal(input, shape) {
      const checked = shape === 'one' ? checkOne(input) : checkList(input);
      return checked instanceof Error ? checked : undefined;
    },
  };
}

/** PUT's `{banks}` checked: the banks, or the 422 listing every bad entry and duplicated BIC. */
function checkList(input: unknown): Bank[] | AppError {
  const list = (input as { banks?: unknown } | null)?.banks;
  if (!Array.isArray(list)) return errors.validationFailed([{ field: 'banks', message: 'must be an array of banks' }]);
  const checked = validateBankList(list, (index) => `banks[${index}]`);
  return 'problems' in checked ? errors.validationFailed(checked.problems, checked.total) : checked.banks;
}

/** POST's bank checked: the bank, or the 422 listing what is wrong with it. */
function checkOne(input: unknown): Bank | AppError {
  const result = validateBank(input, 'body');
  return 'problems' in result ? errors.validationFailed(result.problems.map(stripBodyPrefix)) : result.bank;
}

/** A BIC from a path, refused with 400 when it holds a control character (never echoed back in a 404). */
function readableBic(bic: string): string {
  if (/[\u0000-\u001f\u007f]/.test(bic)) throw errors.badRequest();
  return bic;
}

function stripBodyPrefix<T extends { field?: string }>(detail: T): T {
  return detail.field ? { ...detail, field: detail.field.replace(/^body\./, '') } : detail;
}
