import { CliError, print, type CliIo } from './cli-io.js';

/**
 * One subcommand of a group (`partner add`, `bank list`, `banks`): how its usage line shows its arguments,
 * what it does, and what runs it. `run` gets its own usage line (`Usage: <group> <name> <synopsis>`) for its
 * `--help` and its usage errors.
 */
export interface Subcommand<C> {
  /** Its arguments and options as its usage line shows them, e.g. `<login> [--json]`. */
  synopsis: string;
  /** What it does; further lines of it are indented under the first in the group's help. */
  summary: string;
  /**
   * Whether it changes data (for some arguments only: a function of them). With no terminal on stdin to ask (a
   * script, a pipe, CI), runGroup refuses such a command unless `--yes` (or, where it has one, `--dry-run`) says
   * what is meant; every command accepts `--yes` (parseCommand).
   */
  changes: boolean | ((args: string[]) => boolean);
  run(args: string[], io: CliIo, context: C, usage: string): Promise<void>;
}

/**
 * A command and its subcommands, as one table: the dispatch, the group's help and the program's help all
 * read it, so that no subcommand can run without being listed (nor be listed without running).
 *
 * @example
 * ```ts
 * const keys: CommandGroup<AdminApi> = { command: 'partner-gateway keys', subcommands: { list: { synopsis: '[--json]', summary: 'the keys in service', run: ... } } };
 * await runGroup(keys, ['list'], io, admin);
 * ```
 */
export interface CommandGroup<C> {
  /** The words that name the group on a command line: `partner-gateway partner`. */
  command: string;
  /** What the group is for, in a few words: the program's help lists it beside the group's name. */
  summary?: string;
  /** A paragraph between the usage line and the commands. */
  intro?: string;
  subcommands: Record<string, Subcommand<C>>;
  /** Text after the commands: options shared by all, examples. */
  epilogue?: string;
}

const SUMMARY_COLUMN = 34;

/** The group's help: its usage line, its intro, one entry per subcommand (from the table), its epilogue. */
export function groupUsage<C>(group: CommandGroup<C>): string {
  const entries = Object.entries(group.subcommands).map(([name, subcommand]) => {
    const synopsis = synopsisOf(subcommand);
    const { summary } = subcommand;
    const head = `  ${name}${synopsis ? ` ${synopsis}` : ''}`;
    const [first, ...more] = summary.split('\n');
    const indent = ' '.repeat(SUMMARY_COLUMN);
    const lines = head.length < SUMMARY_COLUMN ? [`${head.padEnd(SUMMARY_COLUMN)}${first}`] : [head, `${indent}${first}`];
    return [...lines, ...more.map((line) => `${indent}${line}`)].join('\n');
  });
  return [`Usage: ${group.command} <command> [options]`, ...(group.intro ? ['', group.intro] : []), '', 'Commands:', ...entries, ...(group.epilogue ? ['', group.epilogue] : [])].join('\n');
}

/**
 * The names of a group's subcommands, comma-separated, wrapped to `width`: the first line starts at column
 * `first`, the next ones are indented to column `next`.
 */
export function subcommandList<C>(group: CommandGroup<C>, first: number, next: number, width = 100): string {
  const lines: string[] = [];
  let line = '';
  for (const name of Object.keys(group.subcommands)) {
    const longer = line ? `${line}, ${name}` : name;
    if (line && (lines.length === 0 ? first : next) + longer.length + 1 > width) {
      lines.push(`${line},`);
      line = name;
    } else line = longer;
  }
  lines.push(line);
  return lines.join(`\n${' '.repeat(next)}`);
}

/** A subcommand's synopsis as its usage shows it: one that changes data always lists `[--yes]`. */
function synopsisOf<C>({ synopsis, changes }: Subcommand<C>): string {
  if (changes === false || /(^|\s|\[)--yes\b/.test(synopsis)) return synopsis;
  return synopsis ? `${synopsis} [--yes]` : '[--yes]';
}

/** Whether the synopsis makes `--yes` mandatory (`<kid> --yes`): such a command refuses itself, saying what is lost. */
function needsYesAlways(synopsis: string): boolean {
  return /(^|\s)--yes\b/.test(synopsis);
}

/** Whether the arguments say what is meant without a terminal to ask: `--yes`, `--dry-run`, or a help request. */
function saysWhatIsMeant(args: string[]): boolean {
  return args.some((arg) => arg === '--yes' || arg === '--dry-run' || arg === '--help' || arg === '-h');
}

/**
 * Runs `args` (`<subcommand> [arguments]`) against the group: its help for none, `help`, `--help` or `-h`; a
 * usage error (exit code 2) naming the group's commands for an unknown one; a usage error, before anything is
 * sent, for a command that changes data with no terminal on stdin and neither `--yes` nor `--dry-run`.
 */
export async function runGroup<C>(group: CommandGroup<C>, args: string[], io: CliIo, context: C): Promise<void> {
  const [name, ...rest] = args;
  if (name === undefined || name === 'help' || name === '--help' || name === '-h') return print(io, groupUsage(group));
  const subcommand = Object.hasOwn(group.subcommands, name) ? group.subcommands[name] : undefined;
  if (!subcommand) throw new CliError(`Unknown command: ${group.command} ${name}\n\n${groupUsage(group)}`, 2);
  const synopsis = synopsisOf(subcommand);
  const usage = `Usage: ${group.command} ${name}${synopsis ? ` ${synopsis}` : ''}`;
  const changes = typeof subcommand.changes === 'function' ? subcommand.changes(rest) : subcommand.changes;
  if (changes && !needsYesAlways(synopsis) && !io.stdin.isTTY && !saysWhatIsMeant(rest)) {
    const dryRun = /--dry-run\b/.test(synopsis) ? ' (or --dry-run to see what it would do)' : '';
    throw new CliError(`${group.command} ${name} changes data and there is no terminal to confirm it: pass --yes to go ahead${dryRun}\n${usage}`, 2);
  }
  return subcommand.run(rest, io, context, usage);
}
