/**
 * A text a spreadsheet may read as a formula: one starting with =, +, -, @, a tab or a carriage return, or with
 * any of =, +, -, @ after leading whitespace (a line break, spaces, a no-break space), which spreadsheets skip.
 */
const FORMULA_START = /^(?:[\t\r]|[\s\u00a0\u2000-\u200b\u3000\ufeff]*[=+\-@\uff1d\uff0b\uff0d\uff20])/;
/** A formula behind apostrophes: defused once more, so that reading back drops exactly the one csvCell added. */
const DEFUSED_START = new RegExp(`^'*(?:${FORMULA_START.source.slice(1)})`);

/**
 * One CSV cell (RFC 4180): quoted when it holds the separator (`,` unless told), a quote or a line break; a
 * formula defused by a leading apostrophe (formulaDefused reads it back).
 *
 * @example
 * ```ts
 * csvCell('Банк "Зенит"'); // '"Банк ""Зенит"""'
 * csvCell('=1+1'); // "'=1+1"
 * csvCell('a;b', ';'); // '"a;b"'
 * ```
 */
export function csvCell(value: unknown, separator = ','): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && DEFUSED_START.test(text)) text = `'${text}`;
  return /[",;\r\n]/.test(text) || text.includes(separator) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** A cell's text as csvCell wrote it read back: the apostrophe that defused a formula dropped, anything else as it is. */
export function formulaDefused(text: string): string {
  return text.startsWith("'") && DEFUSED_START.test(text.slice(1)) ? text.slice(1) : text;
}
