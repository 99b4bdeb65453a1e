import type { AdminApi } from '@partner-gateway/contract/admin-api-client';
import type { PartnerView } from '@partner-gateway/contract/admin-partners';
import { CliError, print } from '@partner-gateway/client/cli/cli-io';
import type { Subcommand } from '@partner-gateway/client/cli/command-group';
import { parseCommand } from '@partner-gateway/client/cli/parse-command';

/**
 * One of a partner's sub-resources (its keys, its certificates, …) as `partner-gateway partner` handles it: the
 * commands that set it (each reads its own arguments into the PUT body), the one that deletes it (only with
 * --yes), and how its view prints. `partner --help` lists its commands (subresourceSubcommands) and examples
 * from this description.
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

/**
 * The sub-resource's commands as subcommands of `partner-gateway partner` (its set commands, then its delete
 * command), for the group's table: the dispatch and `partner --help` both read them from there.
 *
 * @example
 * ```ts
 * const subcommands = { ...subresourceSubcommands(partnerKeyCommands), ...subresourceSubcommands(partnerCertificateCommands) };
 * ```
 */
export function subresourceSubcommands<Body, View>(subresource: PartnerSubresourceCommands<Body, View>): Record<string, Subcommand<AdminApi>> {
  const subcommands: Record<string, Subcommand<AdminApi>> = {};
  for (const command of subresource.set) {
    subcommands[command.name] = {
      synopsis: ['<login>', ...command.arguments.map((name) => name.replace(/^(.*?)(\.\.\.)?$/, '<$1>$2'))].join(' '),
      changes: true,
      summary: command.help.join('\n'),
      run: async (args, io, admin, usage) => {
        const { values, positionals } = parseCommand(args, {}, ['login', ...command.arguments.map((name) => name.replace(/\.\.\.$/, ''))], usage);
        if (values.help) return print(io, usage);
        const [login, ...rest] = positionals as [string, ...string[]];
        const view = await subresource.api(admin).set(login, await command.read(rest, usage));
        return print(io, `${command.noun} of ${login} registered\n${subresource.describe(view)}`);
      },
    };
  }
  const remove = subresource.delete;
  subcommands[remove.name] = {
    synopsis: '<login> --yes',
    changes: true,
    summary: remove.help.join('\n'),
    run: async (args, io, admin, usage) => {
      const { values, positionals } = parseCommand(args, { yes: { type: 'boolean' } }, ['login'], usage);
      if (values.help) return print(io, usage);
      if (!values.yes) throw new CliError(`${remove.consequence}; confirm with --yes\n${usage}`, 2);
      await subresource.api(admin).remove(positionals[0]!);
      return print(io, `${remove.noun} of ${positionals[0]} removed`);
    },
  };
  return subcommands;
}

/** The sub-resource as `partner show` prints it, or its `none` line. */
export function describeSubresource<Body, View>(subresource: PartnerSubresourceCommands<Body, View>, partner: PartnerView): string {
  const view = subresource.viewOf(partner);
  return view === null ? subresource.none : subresource.describe(view);
}
