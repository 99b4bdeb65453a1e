import { Type, type Static } from 'typebox';
import { BankChangeQuery, BankFieldSources, BankListOutcome } from './admin-bank-versions.js';
import { CURATED_TEXT_FIELD_NAMES, curatedTextInputs, curatedTextValues } from './bank-curated-fields.js';
import { BANK_NAME_MAX_LENGTH, BANK_NAME_PATTERN, BIC_PATTERN } from './patterns.js';

/** The admin API's bank registry shapes. */

/** A bank as the admin API shows it, in the order partners receive the list. */
export const AdminBank = Type.Object({
  bic: Type.String({ pattern: BIC_PATTERN }),
  name: Type.String(),
  ...curatedTextValues(),
  /** Registry facts (the Bank of Russia directory): null until a registry was imported. */
  registryName: Type.Union([Type.String(), Type.Null()]),
  sbpParticipant: Type.Union([Type.Boolean(), Type.Null()]),
  /** Whether the settlement bank's B2C participant list lists the bank; null before a list was read. */
  participantsListed: Type.Union([Type.Boolean(), Type.Null()]),
  /** Where each curated or derived field came from: registry, participants or operator, who and when. */
  sources: BankFieldSources,
  /** 0-based place in the list. */
  position: Type.Integer(),
  updatedAt: Type.String({ format: 'date-time' }),
}, { title: 'AdminBank' });
export type AdminBank = Static<typeof AdminBank>;

/** The list and its current version (pass it as `baseVersion` to apply a change only if nobody changed the list since). */
export const AdminBankList = Type.Object({ version: Type.Integer(), banks: Type.Array(AdminBank) }, { title: 'AdminBankList' });
export type AdminBankList = Static<typeof AdminBankList>;

/**
 * A bank to add or to put in a list. The schema says what the registry accepts; a body it refuses is worded by
 * the bank checks (src/banks/bank.ts), so that every bad entry of a list, duplicated BICs included, is reported
 * with a readable reason in one 422.
 */
export const BankInput = Type.Object({
  bic: Type.String({ pattern: BIC_PATTERN, description: 'Bank of Russia BIC: 9 digits starting with 04, as a string' }),
  name: Type.String({ maxLength: BANK_NAME_MAX_LENGTH, pattern: BANK_NAME_PATTERN, description: 'The name partners receive: not blank, no control characters' }),
  ...curatedTextInputs('empty: none'),
}, { title: 'BankInput' });
export type BankInput = Static<typeof BankInput>;

/** PUT /admin/v1/banks body: the whole list, in order. */
export const ReplaceBanksBody = Type.Object({ banks: Type.Array(BankInput, { maxItems: 100_000, description: 'Each BIC at most once' }) }, { title: 'ReplaceBanksBody' });
export type ReplaceBanksBody = Static<typeof ReplaceBanksBody>;

export const ImportMode = Type.Union([Type.Literal('replace'), Type.Literal('merge'), Type.Literal('curate')], { title: 'ImportMode' });
export type ImportMode = Static<typeof ImportMode>;

/** POST /admin/v1/banks/import query; the body is the file, its format named by Content-Type. */
export const ImportQuery = Type.Object({
  mode: Type.Optional(Type.Union([ImportMode], { description: 'merge (the default): curated fields survive; replace: the list becomes the file, only with confirm=true; curate: a JSON or CSV file sets the curated fields of listed banks only (rows of other BICs are reported in `unknown`, never added)' })),
  confirm: Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false')], { description: 'true: confirms mode=replace (replacing the whole list)' })),
  dryRun: Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false')], { description: 'true: report what the import would do, change nothing' })),
  fileName: Type.Optional(Type.String({ maxLength: 255, description: "The file's name, recorded with the version" })),
  ...BankChangeQuery.properties,
}, { title: 'ImportQuery' });
export type ImportQuery = Static<typeof ImportQuery>;

/** What an import did or would do (every change, old -> new), and how many banks the file held. */
export const ImportReport = Type.Object({
  received: Type.Integer(),
  ...BankListOutcome.properties,
  /** A registry merge: how many new SBP head offices wait in the admission queue (or would, previewed) instead of being published. */
  queued: Type.Optional(Type.Integer()),
  /** mode=curate: the BICs of the file's rows that are not in the list, in the file's order (reported, not added). */
  unknown: Type.Optional(Type.Array(Type.String())),
}, { title: 'ImportReport' });
export type ImportReport = Static<typeof ImportReport>;

/** PATCH /admin/v1/banks/{bic}: curated fields (null clears) and `position`, 1-based, to move the bank there. */
export const EditBankBody = Type.Object(
  {
    name: Type.Optional(Type.String({ maxLength: BANK_NAME_MAX_LENGTH, pattern: BANK_NAME_PATTERN })),
    ...curatedTextInputs('empty or null clears'),
    position: Type.Optional(Type.Integer({ minimum: 1 })),
  },
  { title: 'EditBankBody', additionalProperties: false, minProperties: 1 },
);
export type EditBankBody = Static<typeof EditBankBody>;

export const BicParams = Type.Object({ bic: Type.String({ pattern: BIC_PATTERN }) }, { title: 'BicParams' });
export type BicParams = Static<typeof BicParams>;

/** The CSV export's separator: `,` (RFC 4180), or `;` for spreadsheets whose locale lists with semicolons (Russian Excel). */
export const CSV_SEPARATORS = [',', ';'] as const;
export type CsvSeparator = (typeof CSV_SEPARATORS)[number];

/** The columns of the bank list's CSV export, in order: the curated fields an import (mode=curate) reads back. */
export const BANK_CSV_COLUMNS = ['bic', 'name', ...CURATED_TEXT_FIELD_NAMES] as const;
/**
 * The export's read-only columns after the curated ones: where each curated field came from, as
 * `<registry|participants|operator> <who> <ISO time>` (empty when it was set before sources were recorded). An
 * import reads past them: what an operator types there changes nothing.
 */
export const BANK_CSV_SOURCE_COLUMNS = (['name', ...CURATED_TEXT_FIELD_NAMES] as const).map((field) => `${field}Source` as const);

/** GET /admin/v1/banks/export query. */
export const BankExportQuery = Type.Object(
  {
    separator: Type.Optional(Type.Union([Type.Literal(','), Type.Literal(';')], { description: 'The cell separator: `,` (the default) or `;` (what a spreadsheet in a Russian locale opens as columns)' })),
  },
  { title: 'BankExportQuery', additionalProperties: false },
);
export type BankExportQuery = Static<typeof BankExportQuery>;
