import { createInterface } from 'node:readline/promises';
import type { CliIo } from '@partner-gateway/client/cli/cli-io';

/**
 * Asks `question` on the terminal and answers whether the operator typed y or yes; false without a terminal
 * (callers decide what no terminal means: scripts pass --yes, or apply without asking).
 *
 * @example
 * ```ts
 * if (!(await askConfirmation(io, 'Apply these 214 changes?'))) throw new CliError('Nothing changed.', 1);
 * ```
 */
export async function askConfirmation(io: CliIo, question: string): Promise<boolean> {
  if (!io.stdin.isTTY) return false;
  const reader = createInterface({ input: io.stdin, output: io.stdout, terminal: true });
  try {
    return /^\s*y(es)?\s*$/i.test(await reader.question(`${question} [y/N] `));
  } finally {
    reader.close();
  }
}
