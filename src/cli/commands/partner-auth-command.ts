import type { AdminApi } from '@partner-gateway/contract/admin-api-client';
import { AUTH_METHODS, type AuthMethod, type PartnerView, type UpdatePartnerBody } from '@partner-gateway/contract/admin-partners';
import { CliError, print } from '@partner-gateway/client/cli/cli-io';
import type { Subcommand } from '@partner-gateway/client/cli/command-group';
import { parseCommand, splitList } from '@partner-gateway/client/cli/parse-command';
import { partnerKeyCommands } from './partner-key-command.js';
import { describeSubresource } from './partner-subresource-command.js';

export const PARTNER_AUTH_EXAMPLES = `  partner-gateway partner set-auth acme --methods private_key_jwt --require-bound-tokens`;

/**
 * `partner-gateway partner set-auth`: how the partner may authenticate and whether its tokens must be bound, part
 * of `partnerCommands`.
 *
 * @example
 * ```sh
 * partner-gateway partner set-auth acme --methods private_key_jwt --require-bound-tokens
 * ```
 */
export const partnerAuthSubcommands: Record<string, Subcommand<AdminApi>> = {
  'set-auth': {
    synopsis: '<login> [--methods password,private_key_jwt] [--require-bound-tokens | --no-require-bound-tokens]',
    changes: true,
    summary: 'how the partner may authenticate, and whether its tokens must be DPoP-bound\n(taking password away or requiring binding ends its current sessions)',
    run: async (args, io, admin, usage) => {
      const options = { methods: { type: 'string', multiple: true }, 'require-bound-tokens': { type: 'boolean' }, 'no-require-bound-tokens': { type: 'boolean' } } as const;
      const { values, positionals } = parseCommand(args, options, ['login'], usage);
      if (values.help) return print(io, usage);
      const change: UpdatePartnerBody = {};
      if (values.methods !== undefined) change.authMethods = readMethods(values.methods as unknown as string[], usage);
      if (values['require-bound-tokens'] && values['no-require-bound-tokens']) throw new CliError(`Give --require-bound-tokens or --no-require-bound-tokens, not both\n${usage}`, 2);
      if (values['require-bound-tokens']) change.requireSenderConstrainedTokens = true;
      if (values['no-require-bound-tokens']) change.requireSenderConstrainedTokens = false;
      if (Object.keys(change).length === 0) throw new CliError(`Nothing to change: give --methods or a binding option\n${usage}`, 2);
      const partner = await admin.partners.update(positionals[0]!, change);
      return print(io, `Partner ${partner.login}\n${describeAuth(partner)}\n${describeSubresource(partnerKeyCommands, partner)}`);
    },
  },
};

/** The partner's methods and binding, as `partner show` prints them (its keys follow). */
export function describeAuth(partner: PartnerView): string {
  return [`  auth methods: ${partner.authMethods.join(', ')}`, `  bound tokens: ${partner.requireSenderConstrainedTokens ? 'required (DPoP)' : 'not required'}`].join('\n');
}

function readMethods(values: string[], usage: string): AuthMethod[] {
  const methods = splitList(values);
  const unknown = methods.filter((method) => !(AUTH_METHODS as readonly string[]).includes(method));
  if (methods.length === 0 || unknown.length > 0) throw new CliError(`--methods must list some of ${AUTH_METHODS.join(', ')}${unknown.length > 0 ? ` (unknown: ${unknown.join(', ')})` : ''}\n${usage}`, 2);
  return [...new Set(methods)] as AuthMethod[];
}
