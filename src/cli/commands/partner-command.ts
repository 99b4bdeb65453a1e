import type { PartnerView } from '@partner-gateway/contract/admin-partners';
import type { AdminApi } from '@partner-gateway/contract/admin-api-client';
import { CliError, print, table, type CliIo } from '../cli-io.js';
import { parseCommand, splitList } from '../parse-command.js';
import { readPassword } from '../read-password.js';
import { describeAuth, PARTNER_AUTH_EXAMPLES, PARTNER_AUTH_USAGE, partnerAuthCommand } from './partner-auth-command.js';
import { partnerCertificateCommands } from './partner-certificate-command.js';
import { partnerKeyCommands } from './partner-key-command.js';
import { describeSubresource, partnerSubresourceCommand, subresourceUsage, type PartnerSubresourceCommands } from './partner-subresource-command.js';

/** A partner's sub-resources, each set and deleted by its own commands (`partner show` prints them in this order). */
const SUBRESOURCES: ReadonlyArray<PartnerSubresourceCommands> = [partnerKeyCommands, partnerCertificateCommands];

export const PARTNER_USAGE = `Usage: partner-gateway partner <command> [options]

Commands:
  add <login> --ips <cidr,...> [--rewards sbp,...] [--blocked] [--password-stdin]
                                  create a partner (the password is prompted for, or read from stdin)
  list [--json]                   list partners (with their auth methods, "(bound)" when tokens must be DPoP-bound)
  show <login> [--json]           show one partner
  block <login>                   refuse the partner's logins and calls from the next request on
  unblock <login>                 allow them again
  set-ips <login> <cidr>...       replace the IP allowlist (IPv4/IPv6 addresses or CIDRs; none allows nothing)
  set-rewards <login> <type>...   replace the reward types (the banks operation needs sbp)
  passwd <login> [--password-stdin]
                                  set a new API password
  remove <login>                  delete the partner
${PARTNER_AUTH_USAGE}
${SUBRESOURCES.map(subresourceUsage).join('\n')}

Examples:
  printf '%s' "$PASSWORD" | partner-gateway partner add acme --ips 203.0.113.0/24 --rewards sbp --password-stdin
  partner-gateway partner set-ips acme 203.0.113.0/24 2001:db8::/32
${PARTNER_AUTH_EXAMPLES}
${SUBRESOURCES.flatMap((subresource) => subresource.examples.map((example) => `  ${example}`)).join('\n')}`;

const usageOf = (line: string) => `Usage: partner-gateway partner ${line}`;

/**
 * `partner-gateway partner ...`: manages partners through the admin API.
 *
 * @example
 * ```sh
 * partner-gateway partner block acme
 * ```
 */
export async function partnerCommand(args: string[], io: CliIo, admin: AdminApi): Promise<void> {
  const [command, ...rest] = args;
  switch (command) {
    case 'add': {
      const usage = usageOf('add <login> --ips <cidr,...> [--rewards sbp,...] [--blocked] [--password-stdin]');
      const { values, positionals } = parseCommand(rest, { ips: { type: 'string', multiple: true }, rewards: { type: 'string', multiple: true }, blocked: { type: 'boolean' }, 'password-stdin': { type: 'boolean' } }, ['login'], usage);
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
    }
    case 'list': {
      const usage = usageOf('list [--json]');
      const { values } = parseCommand(rest, { json: { type: 'boolean' } }, [], usage);
      if (values.help) return print(io, usage);
      const { partners } = await admin.partners.list();
      if (values.json) return print(io, JSON.stringify(partners, null, 2));
      return print(io, partners.length === 0 ? 'No partners.' : table(['LOGIN', 'STATUS', 'IP ALLOWLIST', 'REWARD TYPES', 'AUTH'], partners.map((p) => [p.login, p.status, p.ipAllowlist.join(',') || '(none)', p.rewardTypes.join(',') || '(none)', `${p.authMethods.join(',')}${p.requireSenderConstrainedTokens ? ' (bound)' : ''}`])));
    }
    case 'show': {
      const usage = usageOf('show <login> [--json]');
      const { values, positionals } = parseCommand(rest, { json: { type: 'boolean' } }, ['login'], usage);
      if (values.help) return print(io, usage);
      const partner = await admin.partners.get(positionals[0]!);
      return print(io, values.json ? JSON.stringify(partner, null, 2) : describe(partner));
    }
    case 'block':
    case 'unblock': {
      const usage = usageOf(`${command} <login>`);
      const { values, positionals } = parseCommand(rest, {}, ['login'], usage);
      if (values.help) return print(io, usage);
      const partner = await admin.partners.update(positionals[0]!, { status: command === 'block' ? 'blocked' : 'active' });
      return print(io, `Partner ${partner.login} is now ${partner.status}`);
    }
    case 'set-ips': {
      const usage = usageOf('set-ips <login> <cidr>...');
      const { values, positionals } = parseCommand(rest, {}, ['login'], usage);
      if (values.help) return print(io, usage);
      const partner = await admin.partners.update(positionals[0]!, { ipAllowlist: splitList(positionals.slice(1)) });
      return print(io, `Partner ${partner.login} may call from: ${partner.ipAllowlist.join(', ') || '(no address)'}`);
    }
    case 'set-rewards': {
      const usage = usageOf('set-rewards <login> <type>...');
      const { values, positionals } = parseCommand(rest, {}, ['login'], usage);
      if (values.help) return print(io, usage);
      const partner = await admin.partners.update(positionals[0]!, { rewardTypes: splitList(positionals.slice(1)) });
      return print(io, `Partner ${partner.login} reward types: ${partner.rewardTypes.join(', ') || '(none)'}`);
    }
    case 'passwd': {
      const usage = usageOf('passwd <login> [--password-stdin]');
      const { values, positionals } = parseCommand(rest, { 'password-stdin': { type: 'boolean' } }, ['login'], usage);
      if (values.help) return print(io, usage);
      const password = await readPassword(io, Boolean(values['password-stdin']), 'New password: ');
      const partner = await admin.partners.update(positionals[0]!, { password });
      return print(io, `Password of ${partner.login} changed`);
    }
    case 'remove': {
      const usage = usageOf('remove <login>');
      const { values, positionals } = parseCommand(rest, {}, ['login'], usage);
      if (values.help) return print(io, usage);
      await admin.partners.remove(positionals[0]!);
      return print(io, `Partner ${positionals[0]} removed`);
    }
    case 'set-auth':
      return partnerAuthCommand(rest, io, admin);
    case undefined:
    case '--help':
    case '-h':
    case 'help':
      return print(io, PARTNER_USAGE);
    default:
      if (await partnerSubresourceCommand(SUBRESOURCES, command, rest, io, admin)) return;
      throw new CliError(`Unknown partner command ${command}\n\n${PARTNER_USAGE}`, 2);
  }
}

function describe(partner: PartnerView): string {
  return [
    `  login:        ${partner.login}`,
    `  status:       ${partner.status}`,
    `  IP allowlist: ${partner.ipAllowlist.join(', ') || '(none: no address may call)'}`,
    `  reward types: ${partner.rewardTypes.join(', ') || '(none)'}`,
    describeAuth(partner),
    ...SUBRESOURCES.map((subresource) => describeSubresource(subresource, partner)),
    `  created:      ${partner.createdAt}`,
    `  updated:      ${partner.updatedAt}`,
  ].join('\n');
}
