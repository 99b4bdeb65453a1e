import type { AdminApi } from '@partner-gateway/contract/admin-api-client';
import type { PartnerView } from '@partner-gateway/contract/admin-partners';
import { CliError, print, type CliIo } from '../cli-io.js';
import { parseCommand } from '../parse-command.js';

/**
 * One of a partner's sub-resources (its keys, its certificates, …) as `partner-gateway partner` handles it: the
 * commands that set it (each reads its own arguments into the PUT body), the one that deletes it (only with
 * --yes), and how its view prints. `partner --help` lists its commands and examples from this description.
 */
export interface PartnerSubresourceCommands<Body = unknown, View = unknown> {
  /** The commands that set it: `set-jwks`, or `set-certs` and `set-subject`. */
  set: ReadonlyArray<SetCommand<Body>>;
  delete: DeleteCommand;
  /** The admin API's calls for it. */
  api(admin: AdminApi): { set(login: string, body: Body): Promise<View>; remove(login: string): Promise<void> };
  /** Its part of the partner view: null when the partner has none. */
  viewOf(partner: PartnerView): View | null;
  /** Its view as `partner show` and the set commands print it: indented lines. */
  describe(view: View): string;
  /** What `partner show` prints when the partner has none, e.g. `  keys:         (none)`. */
  none: string;
  /** Command lines for the examples of `partner --help`. */
  examples: readonly string[];
}

export interface SetCommand<Body> {
  name: string;
  /** The arguments after `<login>`, each required; a name ending in `...` takes one or more. */
  arguments: readonly string[];
  /** What it does, for `partner --help`: one line each, wrapped by hand. */
  help: readonly string[];
  /** What it prints once done: `${noun} of <login> registered`. */
  noun: string;
  /** The PUT body from the arguments after the login; a CliError (exit code 2) names what is wrong with them. */
  read(args: string[], usage: string): Body | Promise<Body>;
}

export interface DeleteCommand {
  name: string;
  help: readonly string[];
  /** What it prints once done: `${noun} of <login> removed`. */
  noun: string;
  /** What is lost, said when --yes is missing: `Without its keys the partner cannot use private_key_jwt, …`. */
  consequence: string;
}

const usageOf = (line: string) => `Usage: partner-gateway partner ${line}`;
/** Where the help text of a command starts in `partner --help`. */
const HELP_COLUMN = 34;

/**
 * Runs `command` if one of the sub-resources has it; false when none does, so that `partnerCommand` reports it as unknown.
 *
 * @example
 * ```ts
 * if (await partnerSubresourceCommand([partnerKeyCommands, partnerCertificateCommands], 'set-jwks', ['acme', 'acme.jwks.json'], io, admin)) return;
 * ```
 */
export async function partnerSubresourceCommand(subresources: ReadonlyArray<PartnerSubresourceCommands>, command: string, rest: string[], io: CliIo, admin: AdminApi): Promise<boolean> {
  for (const subresource of subresources) {
    const setter = subresource.set.find((candidate) => candidate.name === command);
    if (setter) return await runSet(subresource, setter, rest, io, admin), true;
    if (subresource.delete.name === command) return await runDelete(subresource, rest, io, admin), true;
  }
  return false;
}

async function runSet(subresource: PartnerSubresourceCommands, command: SetCommand<unknown>, rest: string[], io: CliIo, admin: AdminApi): Promise<void> {
  const usage = usageOf(synopsisOf(command));
  const { values, positionals } = parseCommand(rest, {}, ['login', ...command.arguments.map((name) => name.replace(/\.\.\.$/, ''))], usage);
  if (values.help) return print(io, usage);
  const [login, ...args] = positionals as [string, ...string[]];
  const view = await subresource.api(admin).set(login, await command.read(args, usage));
  print(io, `${command.noun} of ${login} registered\n${subresource.describe(view)}`);
}

async function runDelete(subresource: PartnerSubresourceCommands, rest: string[], io: CliIo, admin: AdminApi): Promise<void> {
  const command = subresource.delete;
  const usage = usageOf(`${command.name} <login> --yes`);
  const { values, positionals } = parseCommand(rest, { yes: { type: 'boolean' } }, ['login'], usage);
  if (values.help) return print(io, usage);
  if (!values.yes) throw new CliError(`${command.consequence}; confirm with --yes\n${usage}`, 2);
  await subresource.api(admin).remove(positionals[0]!);
  print(io, `${command.noun} of ${positionals[0]} removed`);
}

/** The sub-resource as `partner show` prints it, or its `none` line. */
export function describeSubresource(subresource: PartnerSubresourceCommands, partner: PartnerView): string {
  const view = subresource.viewOf(partner);
  return view === null ? subresource.none : subresource.describe(view);
}

/** The lines of `partner --help` for the sub-resource's commands: each synopsis, then its help from column 34. */
export function subresourceUsage(subresource: PartnerSubresourceCommands): string {
  const commands = [...subresource.set.map((command) => ({ synopsis: synopsisOf(command), help: command.help })), { synopsis: `${subresource.delete.name} <login> --yes`, help: subresource.delete.help }];
  return commands
    .flatMap(({ synopsis, help }) => help.map((line, index) => (index === 0 ? `  ${synopsis.padEnd(HELP_COLUMN - 4)}  ${line}` : `${' '.repeat(HELP_COLUMN)}${line}`)))
    .join('\n');
}

function synopsisOf(command: SetCommand<unknown>): string {
  return [command.name, '<login>', ...command.arguments.map((name) => name.replace(/^(.*?)(\.\.\.)?$/, '<$1>$2'))].join(' ');
}
