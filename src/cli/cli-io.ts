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

export function print(io: CliIo, text: string): void {
  io.stdout.write(text.endsWith('\n') ? text : `${text}\n`);
}

/** Renders rows as an aligned plain-text table under a header line. */
export function table(headers: string[], rows: string[][]): string {
  const widths = headers.map((header, column) => Math.max(header.length, ...rows.map((row) => (row[column] ?? '').length)));
  const line = (cells: string[]) => cells.map((cell, column) => cell.padEnd(widths[column]!)).join('  ').trimEnd();
  return [line(headers), ...rows.map(line)].join('\n');
}
