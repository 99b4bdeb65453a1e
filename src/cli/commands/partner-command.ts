import type { PartnerView } from '@partner-gateway/contract/admin-partners';
import type { AdminApi } from '@partner-gateway/contract/admin-api-client';
import { CliError, print, table } from '@partner-gateway/client/cli/cli-io';
import type { CommandGroup, Subcommand } from '@partner-gateway/client/cli/command-group';
import { parseCommand, splitList } from '@partner-gateway/client/cli/parse-command';
import { readPassword } from '@partner-gateway/client/cli/read-password';
import { describeAuth, PARTNER_AUTH_EXAMPLES, partnerAuthSubcommands } from './partner-auth-command.js';
import { partnerCertificateCommands } from './partner-certificate-command.js';
import { partnerKeyCommands } from './partner-key-command.js';
import { partnerWebhookCommands } from './partner-webhook-command.js';
import { partnerUserCommands } from './partner-user-command.js';
import { describeSubresource, subresourceSubcommands, type PartnerSubresourceCommands } from './partner-subresource-command.js';

/** A partner's sub-resources, each set and deleted by its own commands (`partner show` prints them in this order). */
const SUBRESOURCES: ReadonlyArray<PartnerSubresourceCommands> = [partnerKeyCommands, partnerCertificateCommands];

/** block and unblock: the same change, to the other status. */
const setStatus = (status: 'active' | 'blocked', summary: string): Subcommand<AdminApi> => ({
  synopsis: '<login>',
  changes: true,
  summary,
  run: async (args, io, admin, usage) => {
    const { values, positionals } = parseCommand(args, {}, ['login'], usage);
    if (values.help) return print(io, usage);
    const partner = await admin.partners.update(positionals[0]!, { status });
    return print(io, `Partner ${partner.login} is now ${partner.status}`);
  },
});

/**
 * `partner-gateway partner ...`: manages partners through the admin API.
 *
 * @example
 * ```sh
 * partner-gateway partner block acme
 * ```
 */
export const partnerCommands: CommandGroup<AdminApi> = {
  command: 'partner-gateway partner',
  summary: 'manage partners',
  subcommands: {
    add: {
      synopsis: '<login> --ips <cidr,...> [--rewards sbp,...] [--blocked] [--password-stdin]',
      changes: true,
      summary: 'create a partner (the password is prompted for, or read from stdin)',
      run: async (args, io, admin, usage) => {
        const { values, positionals } = parseCommand(args, { ips: { type: 'string', multiple: true }, rewards: { type: 'string', multiple: true }, blocked: { type: 'boolean' }, 'password-stdin': { type: 'boolean' } }, ['login'], usage);
        if (values.help) return print(io, usage);
        if (values.ips === undefined) throw new CliError(`--ips is required (use --ips "" for a partner that may call from nowhere yet)\n${usage}`, 2);
        const password = await readPassword(io, Boolean(values['password-stdin']));
        const created = await admin.partners.create({
          login: positionals[0]!,
          password,
          ipAllowlist: splitList(values.ips as unknown as string[]),
          rewardTypes: splitList((values.rewards as unknown as string[] | undefined) ?? ['sbp']),
          status: values.blocked ? 'blocked' : 'active',
        });
        return print(io, `Created partner ${created.login}\n${describe(created)}`);
      },
    },
    list: {
      synopsis: '[--json] [--wide]',
      changes: false,
      summary: 'list partners (with their auth methods, "(bound)" when tokens must be DPoP-bound)',
      run: async (args, io, admin, usage) => {
        const { values } = parseCommand(args, { json: { type: 'boolean' }, wide: { type: 'boolean' } }, [], usage);
        if (values.help) return print(io, usage);
        const { partners } = await admin.partners.list();
        if (values.json) return print(io, JSON.stringify(partners, null, 2));
        const rows = partners.map((p) => [p.login, p.status, p.ipAllowlist.join(',') || '(none)', p.rewardTypes.join(',') || '(none)', `${p.authMethods.join(',')}${p.requireSenderConstrainedTokens ? ' (bound)' : ''}`]);
        return print(io, partners.length === 0 ? 'No partners.' : table(['LOGIN', 'STATUS', 'IP ALLOWLIST', 'REWARD TYPES', 'AUTH'], rows, { wide: values.wide === true, cutLast: ['STATUS'] }));
      },
    },
    show: {
      synopsis: '<login> [--json]',
      changes: false,
      summary: 'show one partner',
      run: async (args, io, admin, usage) => {
        const { values, positionals } = parseCommand(args, { json: { type: 'boolean' } }, ['login'], usage);
        if (values.help) return print(io, usage);
        const partner = await admin.partners.get(positionals[0]!);
        return print(io, values.json ? JSON.stringify(partner, null, 2) : describe(partner));
      },
    },
    block: setStatus('blocked', "refuse the partner's logins and calls from the next request on"),
    unblock: setStatus('active', 'allow them again'),
    'set-ips': {
      synopsis: '<login> <cidr>...',
      changes: true,
      summary: 'replace the IP allowlist (IPv4/IPv6 addresses or CIDRs; none allows nothing)',
      run: async (args, io, admin, usage) => {
        const { values, positionals } = parseCommand(args, {}, ['login'], usage);
        if (values.help) return print(io, usage);
        const partner = await admin.partners.update(positionals[0]!, { ipAllowlist: splitList(positionals.slice(1)) });
        return print(io, `Partner ${partner.login} may call from: ${partner.ipAllowlist.join(', ') || '(no address)'}`);
      },
    },
    'reward-types': {
      synopsis: '',
      changes: false,
      summary: 'list the reward types a partner may be given (REWARD_TYPES)',
      run: async (args, io, admin, usage) => {
        const { values } = parseCommand(args, {}, [], usage);
        if (values.help) return print(io, usage);
        return print(io, (await admin.partners.rewardTypes()).rewardTypes.join('\n'));
      },
    },
    'credential-ends': {
      synopsis: '[--days <n>] [--limit <n>] [--wide]',
      changes: false,
      summary: 'list the partners\' keys, certificates and replaced passwords that stop working within --days (default 30), soonest first',
      run: async (args, io, admin, usage) => {
        const { values } = parseCommand(args, { days: { type: 'string' }, limit: { type: 'string' }, wide: { type: 'boolean' } }, [], usage);
        if (values.help) return print(io, usage);
        const text = (value: unknown) => (typeof value === 'string' ? value : undefined);
        const { ends, more } = await admin.partners.credentialEnds({ days: text(values.days), limit: text(values.limit) });
        if (ends.length === 0) return print(io, 'No credential ends within that time.');
        const rows = ends.map((end) => [end.endsAt, end.partner, end.credential, end.id]);
        return print(io, `${table(['ENDS AT', 'PARTNER', 'CREDENTIAL', 'ID'], rows, { wide: values.wide === true, cutLast: ['ID'] })}${more ? '\n(more: raise --limit)' : ''}`);
      },
    },
    'set-rewards': {
      synopsis: '<login> <type>...',
      changes: true,
      summary: 'replace the reward types, each from partner reward-types (the banks operation needs sbp)',
      run: async (args, io, admin, usage) => {
        const { values, positionals } = parseCommand(args, {}, ['login'], usage);
        if (values.help) return print(io, usage);
        const partner = await admin.partners.update(positionals[0]!, { rewardTypes: splitList(positionals.slice(1)) });
        return print(io, `Partner ${partner.login} reward types: ${partner.rewardTypes.join(', ') || '(none)'}`);
      },
    },
    passwd: {
      synopsis: '<login> [--password-stdin]',
      changes: true,
      summary: 'set a new API password',
      run: async (args, io, admin, usage) => {
        const { values, positionals } = parseCommand(args, { 'password-stdin': { type: 'boolean' } }, ['login'], usage);
        if (values.help) return print(io, usage);
        const password = await readPassword(io, Boolean(values['password-stdin']), 'New password: ');
        const partner = await admin.partners.update(positionals[0]!, { password });
        return print(io, `Password of ${partner.login} changed`);
      },
    },
    remove: {
      synopsis: '<login>',
      changes: true,
      summary: 'delete the partner',
      run: async (args, io, admin, usage) => {
        const { values, positionals } = parseCommand(args, {}, ['login'], usage);
        if (values.help) return print(io, usage);
        await admin.partners.remove(positionals[0]!);
        return print(io, `Partner ${positionals[0]} removed`);
      },
    },
    ...partnerAuthSubcommands,
    ...Object.assign({}, ...SUBRESOURCES.map((subresource) => subresourceSubcommands(subresource))),
    ...partnerWebhookCommands,
    ...partnerUserCommands,
  },
  epilogue: `Examples:
  printf '%s' "$PASSWORD" | partner-gateway partner add acme --ips 203.0.113.0/24 --rewards sbp --password-stdin
  partner-gateway partner set-ips acme 203.0.113.0/24 2001:db8::/32
${PARTNER_AUTH_EXAMPLES}
${SUBRESOURCES.flatMap((subresource) => subresource.examples.map((example) => `  ${example}`)).join('\n')}`,
};

function describe(partner: PartnerView): string {
  return [
    `  login:        ${partner.login}`,
    `  status:       ${partner.status}`,
    `  IP allowlist: ${partner.ipAllowlist.join(', ') || '(none: no address may call)'}`,
    `  reward types: ${partner.rewardTypes.join(', ') || '(none)'}`,
    ...(partner.unknownRewardTypes.length > 0
      ? [`  WARNING:      ${partner.unknownRewardTypes.join(', ')} not in the catalogue (REWARD_TYPES): set the reward types again (partner set-rewards)`]
      : []),
    describeAuth(partner),
    ...SUBRESOURCES.map((subresource) => describeSubresource(subresource, partner)),
    `  created:      ${partner.createdAt}`,
    `  updated:      ${partner.updatedAt}`,
  ].join('\n');
}
