import { parseArgs, type ParseArgsConfig } from 'node:util';
import { CliError } from './cli-io.js';

type Options = NonNullable<ParseArgsConfig['options']>;

/**
 * Parses a command's arguments strictly: an unknown option or a missing positional is a usage error that
 * prints the command's own usage line. `--help` (`-h`) and `--yes` are everyone's: `--yes` is the confirmation
 * runGroup asks of a changing command run without a terminal, and means nothing to one that changes nothing.
 */
export function parseCommand<O extends Options>(
  args: string[],
  options: O,
  positionals: string[],
  usage: string,
): { values: Record<keyof O, string | boolean | undefined> & { help?: boolean; yes?: boolean }; positionals: string[] } {
  let parsed: { values: Record<string, unknown>; positionals: string[] };
  try {
    parsed = parseArgs({ args, options: { yes: { type: 'boolean' }, ...options, help: { type: 'boolean', short: 'h' } }, allowPositionals: true, strict: true }) as typeof parsed;
  } catch (error) {
    throw new CliError(`${(error as Error).message}\n${usage}`, 2);
  }
  if (!parsed.values.help && parsed.positionals.length < positionals.length) {
    throw new CliError(`Missing ${positionals.slice(parsed.positionals.length).join(' ')}\n${usage}`, 2);
  }
  return parsed as never;
}

/** Splits `a,b c` style lists given as one or several arguments. */
export function splitList(values: string[]): string[] {
  return values.flatMap((value) => value.split(/[\s,]+/)).filter((value) => value.length > 0);
}
