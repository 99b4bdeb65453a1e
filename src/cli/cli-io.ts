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
 * The one way commands write to stdout. Whatever it prints may hold text that came from the server (logins,
 * bank names, audit rows an attacker chose), so every control character but the line breaks of the layout is
 * escaped here, once for every command (see terminalSafe).
 */
export function print(io: CliIo, text: string): void {
  const safe = terminalSafe(text, { keepNewlines: true });
  io.stdout.write(safe.endsWith('\n') ? safe : `${safe}\n`);
}

/** Renders rows as an aligned plain-text table under a header line; a cell never spans lines (its line breaks are escaped). */
export function table(headers: string[], cells: string[][]): string {
  const rows = cells.map((row) => row.map((cell) => terminalSafe(cell)));
  const widths = headers.map((header, column) => Math.max(header.length, ...rows.map((row) => (row[column] ?? '').length)));
  const line = (cells: string[]) => cells.map((cell, column) => cell.padEnd(widths[column]!)).join('  ').trimEnd();
  return [line(headers), ...rows.map(line)].join('\n');
}
