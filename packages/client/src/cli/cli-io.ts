import { terminalSafe } from './terminal-safe.js';
import type { Readable, Writable } from 'node:stream';

/** What a command may touch: its environment and standard streams. Tests pass their own. */
export interface CliIo {
  env: Record<string, string | undefined>;
  stdin: Readable & { isTTY?: boolean };
  stdout: Writable;
  stderr: Writable;
}

/** A failure to report to the operator: `message` is printed as is, `exitCode` is the process's. */
export class CliError extends Error {
  override name = 'CliError';
  constructor(
    message: string,
    readonly exitCode = 1,
  ) {
    super(message);
  }
}

/**
 * Runs one command line's `action` and answers the process exit code: 0 once it is done; for a CliError its
 * message on stderr (escaped like stdout: it may quote the server's answer) and its exit code. Anything else
 * is a bug, thrown on.
 *
 * @example
 * ```ts
 * process.exitCode = await runInvocation(io, () => clientCommand(argv, io));
 * ```
 */
export async function runInvocation(io: CliIo, action: () => Promise<void>): Promise<number> {
  try {
    await action();
    return 0;
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    io.stderr.write(`${terminalSafe(error.message, { keepNewlines: true })}\n`);
    return error.exitCode;
  }
}

/**
 * The one way commands write to stdout. Whatever it prints may hold text that came from the server (logins,
 * bank names, audit rows an attacker chose), so every control character but the line breaks of the layout is
 * escaped here, once for every command (see terminalSafe).
 */
export function print(io: CliIo, text: string): void {
  const safe = terminalSafe(text, { keepNewlines: true });
  io.stdout.write(safe.endsWith('\n') ? safe : `${safe}\n`);
}

/** The width every table fits unless `--wide` is given: a terminal's default and a review tool's line. */
export const TABLE_WIDTH = 100;

const GAP = '  ';

/**
 * Renders rows as an aligned plain-text table under a header line; a cell never spans lines (its line breaks
 * are escaped). The table fits `TABLE_WIDTH` columns: the widest column is narrowed one character at a time,
 * never below its header, and a cut cell ends with `…`. The columns named in `cutLast` (short fixed formats:
 * a BIC, a time, a reason code) are narrowed only once every other one is as narrow as it goes. The columns
 * named in `keep` (identifiers a reader copies into the next command) are never cut. With `wide`, every cell
 * is printed whole.
 *
 * @example
 * ```ts
 * print(io, table(['BIC', 'NAME'], banks.map((bank) => [bank.bic, bank.name]), { wide: values.wide === true, cutLast: ['BIC'] }));
 * ```
 */
export function table(headers: string[], cells: string[][], { wide = false, cutLast = [], keep = [] }: { wide?: boolean; cutLast?: string[]; keep?: string[] } = {}): string {
  const rows = cells.map((row) => row.map((cell) => terminalSafe(cell)));
  const widths = headers.map((header, column) => Math.max(header.length, ...rows.map((row) => (row[column] ?? '').length)));
  if (!wide) {
    const budget = TABLE_WIDTH - GAP.length * (headers.length - 1);
    const columns = headers.map((header, column) => ({ column, header, last: cutLast.includes(header) })).filter(({ header }) => !keep.includes(header));
    narrow(widths, columns.filter(({ last }) => !last), budget);
    narrow(widths, columns, budget);
  }
  const line = (cells: string[]) => cells.map((cell, column) => cut(cell, widths[column]!).padEnd(widths[column]!)).join(GAP).trimEnd();
  return [line(headers), ...rows.map(line)].join('\n');
}

/** Narrows the widest of `columns` one character at a time until all widths sum to `budget`, none below its header. */
function narrow(widths: number[], columns: Array<{ column: number; header: string }>, budget: number): void {
  let total = widths.reduce((sum, width) => sum + width, 0);
  while (total > budget) {
    let widest: number | undefined;
    for (const { column, header } of columns) {
      if (widths[column]! > header.length && (widest === undefined || widths[column]! > widths[widest]!)) widest = column;
    }
    if (widest === undefined) return; // As narrow as a header: any narrower could not be read.
    widths[widest]!--;
    total--;
  }
}

/** `text` in at most `width` characters: cut, with `…` as its last one, when longer (never half a surrogate pair). */
function cut(text: string, width: number): string {
  if (text.length <= width) return text;
  let end = width - 1;
  if (/[\uD800-\uDBFF]/.test(text[end - 1] ?? '')) end--;
  return `${text.slice(0, end)}…`;
}
