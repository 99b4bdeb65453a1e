import { AdminBank, AdminBankList, BankExportQuery, BankInput, BicParams, EditBankBody, ImportQuery, ImportReport, ReplaceBanksBody, type CsvSeparator, type ImportMode } from './admin-banks.js';
import { BankChangeQuery, BankListOutcome } from './admin-bank-versions.js';
import { BANK_VERSION_ENDPOINTS } from './admin-bank-version-endpoints.js';
import { adminEndpoint, type AdminFile } from './admin-endpoint.js';
import { bankChangeQuery, queryFlag, type BankChangeOptions } from './bank-change-query.js';
import { IMPORT_MEDIA_TYPES } from './import-media-types.js';
import { ADMIN_BANK_EXPORT_PATH, ADMIN_BANK_IMPORT_PATH, ADMIN_BANKS_PATH } from './paths.js';

const tags = ['Banks'];
const ADMIN_BANK_PATH = `${ADMIN_BANKS_PATH}/:bic`;
const VERSIONED = 'Every change makes a new version of the list (see /admin/v1/banks/versions); `baseVersion` applies it only if the list is still at that version (409 `bank_list_changed` otherwise, nothing changed).';
const GUARDED =
  'A change that would remove more banks than BANKS_SYNC_MAX_REMOVALS or leave fewer than BANKS_SYNC_MIN_BANKS (the sync\'s removal guard) is held for a second operator (202, a proposal) whatever the approval settings.';

/**
 * The bank list. Every change is a new version; `baseVersion` (from `list()` or a preview) applies it only if
 * the list is still at that version (409 `bank_list_changed` otherwise).
 *
 * @example
 * ```ts
 * const preview = await admin.banks.import(file, { dryRun: true });
 * await admin.banks.import(file, { baseVersion: preview.baseVersion });
 * ```
 */
export const BANK_ENDPOINTS = {
  list: adminEndpoint({
    method: 'GET',
    path: ADMIN_BANKS_PATH,
    operationId: 'listAdminBanks',
    tags,
    summary: 'The bank list, in the order partners receive it, with its version',
    status: 200,
    answer: AdminBankList,
    permission: 'read',
    cli: 'bank list',
    send: () => ({}),
  }),
  /** Replaces the whole list (maker-checker action `banks.replace`). */
  replace: adminEndpoint({
    method: 'PUT',
    path: ADMIN_BANKS_PATH,
    operationId: 'replaceBanks',
    tags,
    summary: 'Replace the whole list (all or nothing; maker-checker action banks.replace)',
    description: `Banks the body leaves out are removed; a bank that stays keeps its registry facts. ${VERSIONED}`,
    querystring: BankChangeQuery,
    body: ReplaceBanksBody,
    status: 200,
    answer: BankListOutcome,
    permission: 'banks.write',
    audit: 'banks.replace',
    checked: 'banks.replace',
    send: (banks: BankInput[], options: BankChangeOptions = {}) => ({ query: bankChangeQuery(options), body: { banks } }),
  }),
  add: adminEndpoint({
    method: 'POST',
    path: ADMIN_BANKS_PATH,
    operationId: 'addBank',
    tags,
    summary: 'Add a bank at the end of the list (maker-checker action bank.add)',
    description: VERSIONED,
    querystring: BankChangeQuery,
    body: BankInput,
    status: 201,
    answer: AdminBank,
    permission: 'banks.write',
    audit: 'bank.add',
    checked: 'bank.add',
    cli: 'bank add',
    send: (bank: BankInput, options: BankChangeOptions = {}) => ({ query: bankChangeQuery(options), body: bank }),
  }),
  /** Curated fields (null clears) and `position` (1-based: move the bank there). */
  edit: adminEndpoint({
    method: 'PATCH',
    path: ADMIN_BANK_PATH,
    operationId: 'editBank',
    tags,
    summary: "Edit a bank's curated fields, or move it to a position (1-based; maker-checker action bank.edit)",
    description: `Display name, Latin name and NSPK member id (null clears); \`position\` moves the bank there, the others keeping their order. ${VERSIONED}`,
    params: BicParams,
    querystring: BankChangeQuery,
    body: EditBankBody,
    status: 200,
    answer: BankListOutcome,
    permission: 'banks.write',
    audit: 'bank.edit',
    checked: 'bank.edit',
    cli: 'bank edit',
    send: (bic: string, body: EditBankBody, options: BankChangeOptions = {}) => ({ params: { bic }, query: bankChangeQuery(options), body }),
  }),
  remove: adminEndpoint({
    method: 'DELETE',
    path: ADMIN_BANK_PATH,
    operationId: 'removeBank',
    tags,
    summary: 'Remove a bank (maker-checker action bank.remove)',
    description: `${VERSIONED} ${GUARDED}`,
    params: BicParams,
    querystring: BankChangeQuery,
    status: 204,
    answer: { type: 'null', description: 'Removed' },
    permission: 'banks.write',
    audit: 'bank.remove',
    checked: 'bank.remove',
    cli: 'bank remove',
    send: (bic: string, options: BankChangeOptions = {}) => ({ params: { bic }, query: bankChangeQuery(options) }),
  }),
  /** Imports a JSON, CSV or ED807 file, merged unless `mode: 'replace'` with `confirm` (or `mode: 'curate'`: only the listed banks' curated fields); with `dryRun`, only reports what it would do. */
  import: adminEndpoint({
    method: 'POST',
    path: ADMIN_BANK_IMPORT_PATH,
    operationId: 'importBanks',
    tags,
    summary: 'Import a JSON, CSV or ED807 file (Content-Type names the format), merged by default; dryRun=true previews every change',
    description:
      'merge (the default): an ED807 directory adds new SBP head offices at the end, updates registry facts and removes banks that left SBP, never changing a curated field of a bank that stays; ' +
      'a JSON or CSV file sets the curated fields it has and adds new banks at the end (maker-checker action banks.import). ' +
      'mode=curate (the CSV round trip with GET /admin/v1/banks/export): a JSON or CSV file sets the curated fields of the banks already listed, each changed field shown; rows of other BICs are listed in `unknown` and never added (maker-checker action banks.import). ' +
      'A CSV file may be separated by `,` or `;` (read from its header line), start with a BOM and end its lines with CRLF; a BIC or member id a spreadsheet turned into a number (a lost leading zero, 1E+11) is refused with its line. mode=replace&confirm=true replaces the whole list (maker-checker action banks.replace). ' +
      `${VERSIONED} ${GUARDED}`,
    querystring: ImportQuery,
    // Documented, not validated: the file is read as bytes and checked, row by row, by the importer.
    file: { description: 'The file: a JSON list, a CSV with bic and name columns, or a Bank of Russia ED807 directory', consumes: IMPORT_MEDIA_TYPES },
    status: 200,
    answer: ImportReport,
    permission: 'banks.write',
    // A confirmed mode=replace is recorded and submitted as banks.replace instead.
    audit: 'banks.import',
    checked: 'banks.import',
    cli: 'bank import',
    send: (file: AdminFile, options: BankChangeOptions & { mode?: ImportMode; confirm?: boolean; dryRun?: boolean; fileName?: string } = {}) => ({
      query: {
        mode: options.mode,
        confirm: queryFlag(options.confirm),
        dryRun: queryFlag(options.dryRun),
        fileName: options.fileName,
        ...bankChangeQuery(options),
      },
      file,
    }),
  }),
  /**
   * The published list's curated fields as CSV (bic, name, nameEn, sbpMemberId; UTF-8 with a BOM, CRLF): edit it
   * in a spreadsheet and import it back with `mode: 'curate'`, which previews every changed field of every bank.
   */
  exportCsv: adminEndpoint({
    method: 'GET',
    path: ADMIN_BANK_EXPORT_PATH,
    operationId: 'exportBanks',
    tags,
    summary: "The published list's curated fields as CSV, for a spreadsheet (import it back with mode=curate)",
    description:
      'Columns bic, name, nameEn, sbpMemberId, one bank per line in the partners\' order; UTF-8 with a byte-order mark (so Excel reads the Cyrillic names), CRLF line ends, empty cells for unset fields, a cell a spreadsheet would run as a formula prefixed with an apostrophe (dropped again on import). ' +
      'The `x-bank-list-version` header names the version exported: pass it as `baseVersion` to the import to apply the edits only if nobody changed the list since.',
    querystring: BankExportQuery,
    status: 200,
    answer: { type: 'string', description: 'The CSV file' },
    answerAs: 'text',
    produces: ['text/csv'],
    permission: 'read',
    cli: 'bank export',
    send: (options: { separator?: CsvSeparator } = {}) => ({ query: { separator: options.separator } }),
  }),
  ...BANK_VERSION_ENDPOINTS,
};
