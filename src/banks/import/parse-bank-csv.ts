import { parse } from 'csv-parse/sync';
import type { ErrorDetail } from '../../errors.js';
import { decodeText } from './decode-text.js';
import type { ParseResult } from './parse-bank-json.js';

const KNOWN_COLUMNS = ['bic', 'name', 'nameEn', 'sbpMemberId'];

/**
 * Reads a CSV import: a header line naming at least `bic` and `name` (optionally `nameEn`, `sbpMemberId`),
 * then one bank per line. Fields may be quoted (bank names often contain commas and quotes). BICs stay
 * strings, so their leading zero survives. Errors name the file's line.
 */
export function parseBankCsv(bytes: Uint8Array, charset?: string): ParseResult {
  let records: Array<Record<string, string>>;
  let header: string[] = [];
  // Each row's line, in a flat list rather than csv-parse's info object per row: a file of half a million rows
  // must fit in the reading worker's heap.
  const lines: number[] = [];
  try {
    records = parse(decodeText(bytes, charset), {
      columns: (names: string[]) => (header = names.map((column) => column.trim())),
      skip_empty_lines: true,
      trim: true,
      bom: true,
      on_record: (record: Record<string, string>, context: { lines: number }) => {
        lines.push(context.lines);
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
    for (const column of header) {
      if (!KNOWN_COLUMNS.includes(column)) problems.push({ line: 1, message: `unknown column ${column}; expected ${KNOWN_COLUMNS.join(', ')}` });
    }
  }
  if (problems.length > 0) return { problems };
  return {
    entries: records,
    where: (index) => `line ${lines[index] ?? '?'}`,
  };
}
