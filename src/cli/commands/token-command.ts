import type { AdminApi } from '@partner-gateway/contract/admin-api-client';
import { DEFAULT_TOKEN_DAYS, MAX_TOKEN_DAYS } from '@partner-gateway/contract/admin-operators';
import { CliError, print, table } from '@partner-gateway/client/cli/cli-io';
import type { CommandGroup } from '@partner-gateway/client/cli/command-group';
import { parseCommand } from '@partner-gateway/client/cli/parse-command';

/** The operator a token command names: `me` (or none) is the caller's own. */
const operatorId = async (admin: AdminApi, given: string | undefined) => (given === undefined || given === 'me' ? (await admin.session.me()).id : given);

/**
 * `partner-gateway token ...`: operators' personal tokens, through the admin API.
 *
 * @example
 * ```sh
 * partner-gateway token create me --label "deploy script" --days 30
 * ```
 */
export const tokenCommands: CommandGroup<AdminApi> = {
  command: 'partner-gateway token',
  summary: 'personal tokens',
  subcommands: {
    create: {
      synopsis: '<operator-id|me> --label <text> [--days <n>]',
      changes: true,
      summary: `a new personal token, printed once (default ${DEFAULT_TOKEN_DAYS} days, at most ${MAX_TOKEN_DAYS})`,
      run: async (args, io, admin, usage) => {
        const { values, positionals } = parseCommand(args, { label: { type: 'string' }, days: { type: 'string' } }, ['operator'], usage);
        if (values.help) return print(io, usage);
        if (typeof values.label !== 'string' || values.label.trim() === '') throw new CliError(`--label is required: say what the token is for\n${usage}`, 2);
        const days = values.days === undefined ? undefined : Number(values.days);
        if (days !== undefined && !(Number.isInteger(days) && days >= 1 && days <= MAX_TOKEN_DAYS)) throw new CliError(`--days must be from 1 to ${MAX_TOKEN_DAYS}\n${usage}`, 2);
        const created = await admin.operators.createToken(await operatorId(admin, positionals[0]), { label: values.label.trim(), ...(days !== undefined ? { expiresInDays: days } : {}) });
        return print(io, `${created.token}\n\nThe token above is shown only this once (the gateway keeps only its hash). It expires ${created.expiresAt}.\nUse it as PARTNER_GATEWAY_ADMIN_TOKEN, or put it in a file of mode 0600 named by PARTNER_GATEWAY_ADMIN_TOKEN_FILE.`);
      },
    },
    list: {
      synopsis: '[<operator-id|me>] [--json] [--wide]',
      changes: false,
      summary: 'its tokens and their last use (never the tokens)',
      run: async (args, io, admin, usage) => {
        const { values, positionals } = parseCommand(args, { json: { type: 'boolean' }, wide: { type: 'boolean' } }, [], usage);
        if (values.help) return print(io, usage);
        const { tokens } = await admin.operators.tokens(await operatorId(admin, positionals[0]));
        if (values.json) return print(io, JSON.stringify(tokens, null, 2));
        const state = (token: (typeof tokens)[number]) => (token.revokedAt ? `revoked ${token.revokedAt}` : Date.parse(token.expiresAt) <= Date.now() ? 'expired' : 'active');
        return print(io, table(['ID', 'LABEL', 'CREATED', 'EXPIRES', 'LAST USED', 'STATE'], tokens.map((t) => [t.id, t.label, t.createdAt, t.expiresAt, t.lastUsedAt ?? 'never', state(t)]), { wide: values.wide === true, keep: ['ID'] }));
      },
    },
    revoke: {
      synopsis: '<operator-id|me> <token-id>',
      changes: true,
      summary: 'refuse a token at once, on every instance',
      run: async (args, io, admin, usage) => {
        const { values, positionals } = parseCommand(args, {}, ['operator', 'token-id'], usage);
        if (values.help) return print(io, usage);
        const revoked = await admin.operators.revokeToken(await operatorId(admin, positionals[0]), positionals[1]!);
        return print(io, `Revoked the token ${revoked.label} (${revoked.id}): it is refused from now on, on every instance.`);
      },
    },
  },
  epilogue: `Any operator manages its own tokens (me); security manages everyone's. Use a token with
  PARTNER_GATEWAY_ADMIN_TOKEN=<token>   or   PARTNER_GATEWAY_ADMIN_TOKEN_FILE=<file holding it>

Examples:
  partner-gateway token create me --label "laptop CLI" --days 30
  partner-gateway token revoke me 7d2e...`,
};
