import { BANK_CSV_COLUMNS, BANK_CSV_SOURCE_COLUMNS } from '@partner-gateway/contract/admin-banks';
import { parse } from 'csv-parse/sync';
import type { ErrorDetail } from '../../errors.js';
import { formulaDefused } from '../../csv/csv-cell.js';
import { decodeText } from './decode-text.js';
import type { ParseResult } from './parse-bank-json.js';

const KNOWN_COLUMNS: readonly string[] = BANK_CSV_COLUMNS;
/** The export's read-only columns (BANK_CSV_SOURCE_COLUMNS): read past, whatever they hold. */
const IGNORED_COLUMNS: readonly string[] = BANK_CSV_SOURCE_COLUMNS;

/**
 * Reads a CSV import: a header line naming at least `bic` and `name` (optionally the other BANK_CSV_COLUMNS),
 * then one bank per line. Fields may be quoted (bank names often contain commas and quotes). BICs stay
 * strings, so their leading zero survives. Errors name the file's line.
 *
 * What spreadsheets do to a CSV file is read as they meant it: a byte-order mark, CRLF line ends, `;` as the
 * separator (Excel in a Russian locale; told by the header line), columns without a name and lines of empty
 * cells (a selection wider or longer than the data), and the apostrophe the export puts before a formula-like
 * cell. A BIC or member id a spreadsheet made a number of is left for the bank checks to refuse by line.
 */
export function parseBankCsv(bytes: Uint8Array, charset?: string): ParseResult {
  let records: Array<Record<string, string>>;
  let text: string;
  try {
    text = decodeText(bytes, charset);
  } catch (error) {
    return { problems: [{ field: 'body', message: `not valid CSV: ${(error as Error).message}${charset ? '' : ' (save it as CSV UTF-8, or name its charset: text/csv; charset=windows-1251)'}` }] };
  }
  let header: string[] = [];
  // Each row's line, in a flat list rather than csv-parse's info object per row: a file of half a million rows
  // must fit in the reading worker's heap.
  const lines: number[] = [];
  try {
    records = parse(text, {
      delimiter: separatorOf(text),
      // A column without a name (a spreadsheet's empty trailing columns) is skipped, and so are the export's sources.
      columns: (names: string[]) => (header = names.map((column) => column.trim())).map((column) => (column && !IGNORED_COLUMNS.includes(column) ? column : undefined)),
      skip_empty_lines: true,
      skip_records_with_empty_values: true,
      trim: true,
      bom: true,
      on_record: (record: Record<string, string>, context: { lines: number }) => {
        lines.push(context.lines);
        for (const column of Object.keys(record)) record[column] = formulaDefused(record[column]!);
        return record;
      },
    }) as Array<Record<string, string>>;
  } catch (error) {
    const line = (error as { lines?: number }).lines;
    return { problems: [{ ...(line ? { line } : { field: 'body' }), message: `not valid CSV: ${(error as Error).message}` }] };
  }
  const problems: ErrorDetail[] = [];
  if (records.length > 0) {
    for (const column of ['bic', 'name']) {
      if (!header.includes(column)) problems.push({ line: 1, message: `the header must name a ${column} column` });
    }
    for (const column of header.filter(Boolean)) {
      if (!KNOWN_COLUMNS.includes(column) && !IGNORED_COLUMNS.includes(column)) problems.push({ line: 1, message: `unknown column ${column}; expected ${KNOWN_COLUMNS.join(', ')}` });
    }
  }
  if (problems.length > 0) return { problems };
  return {
    entries: records,
    where: (index) => `line ${lines[index] ?? '?'}`,
  };
}

/**
 * The file's separator, told by its header line: `;` when it has more semicolons than commas outside quotes
 * (a header of column names has one or the other), else `,`.
 */
function separatorOf(text: string): string {
  const header = text.replace(/^\ufeff/, '').split(/\r?\n/, 1)[0]!.replace(/"[^"]*"/g, '');
  const count = (character: string) => header.split(character).length - 1;
  return count(';') > count(',') ? ';' : ',';
}
