import { BANK_CSV_COLUMNS, BANK_CSV_SOURCE_COLUMNS, type CsvSeparator } from '@partner-gateway/contract/admin-banks';
import type { BankFieldSource, BankListEntry } from '@partner-gateway/contract/admin-bank-versions';
import { CURATED_BANK_FIELDS } from '@partner-gateway/contract/bank-curated-fields';
import { csvCell } from '../csv/csv-cell.js';

/** A byte-order mark: what tells Excel that a CSV file is UTF-8 (without it, Cyrillic names open garbled). */
const BOM = '\ufeff';

/** The bank list's CSV export: its text, its name, and the version it is. */
export interface BankListCsv {
  version: number;
  fileName: string;
  text: string;
}

/**
 * The list's curated fields as a spreadsheet opens them and an import (mode=curate) reads back: a BOM, a header of
 * BANK_CSV_COLUMNS, one bank per line in the partners' order, CRLF line ends, empty cells for unset fields, BICs
 * and member ids as text (a spreadsheet that turns them into numbers is caught on import), formulas defused.
 *
 * @example
 * ```ts
 * bankListCsv(7, [{ bic: '044525225', name: 'Сбербанк', nameEn: 'Sberbank', sbpMemberId: '100000000111', registryName: null, sbpParticipant: null }]);
 * // { version: 7, fileName: 'banks-v7.csv', text: '\ufeffbic,name,nameEn,sbpMemberId,nameSource,nameEnSource,sbpMemberIdSource\r\n044525225,Сбербанк,Sberbank,100000000111,,,\r\n' }
 * ```
 */
export function bankListCsv(version: number, list: readonly BankListEntry[], separator: CsvSeparator = ','): BankListCsv {
  const line = (cells: readonly unknown[]) => `${cells.map((cell) => csvCell(cell, separator)).join(separator)}\r\n`;
  const row = (bank: BankListEntry) => [...BANK_CSV_COLUMNS.map((column) => bank[column]), ...CURATED_BANK_FIELDS.map((field) => describeSource(bank.sources?.[field]))];
  const lines = [line([...BANK_CSV_COLUMNS, ...BANK_CSV_SOURCE_COLUMNS]), ...list.map((bank) => line(row(bank)))];
  return { version, fileName: `banks-v${version}.csv`, text: BOM + lines.join('') };
}

/** A field's source in one cell: `operator alice 2026-11-28T10:00:00.000Z`; empty when none was recorded. */
function describeSource(source: BankFieldSource | undefined): string {
  return source ? `${source.source} ${source.by.name} ${source.at}` : '';
}
