import type { AdminApi } from '@partner-gateway/contract/admin-api-client';
import { CliError, print, runInvocation, type CliIo } from '@partner-gateway/client/cli/cli-io';
import { clientCommands } from '@partner-gateway/client/cli/client-command';
import { runGroup, subcommandList, type CommandGroup } from '@partner-gateway/client/cli/command-group';
import { GATEWAY_VERSION } from '../version.js';
import { adminTransport, createAdminClient } from './admin-client.js';
import { approvalCommands } from './commands/approval-command.js';
import { auditCommand } from './commands/audit-command.js';
import { backupCommand } from './commands/backup-command.js';
import { bankCommands } from './commands/bank-command.js';
import { callCommand } from './commands/call-command.js';
import { keysCommands } from './commands/keys-command.js';
import { operatorCommands } from './commands/operator-command.js';
import { partnerCommands } from './commands/partner-command.js';
import { tokenCommands } from './commands/token-command.js';

/** The command groups that talk to the admin API, by the word that names them. */
export const ADMIN_GROUPS: Record<string, CommandGroup<AdminApi>> = {
  partner: partnerCommands,
  bank: bankCommands,
  keys: keysCommands,
  operator: operatorCommands,
  token: tokenCommands,
  approval: approvalCommands,
};

/** The partner's commands, as `partner-gateway client ...`: the partner CLI of @partner-gateway/client. */
export const CLIENT_GROUP = clientCommands('partner-gateway client');

const COLUMN = 17;
const entry = (name: string, text: string) => `  ${name.padEnd(COLUMN - 2)}${text}`;
const groupEntry = (name: string, group: CommandGroup<unknown>, note = '') => {
  const lead = `${group.summary ?? ''}: `;
  return entry(`${name} ...`, `${lead}${subcommandList(group, COLUMN + lead.length, COLUMN)}${note}`);
};

export const USAGE = [
  'Usage: partner-gateway <command> [options]',
  '',
  'Commands:',
  entry('serve', 'start the gateway (what npm start does); configured by environment variables'),
  entry('migrate', 'apply this version\'s database migrations ([--dry-run]: list them)'),
  ...Object.entries(ADMIN_GROUPS).map(([name, group]) => groupEntry(name, group)),
  entry('audit', 'show or --follow the audit trail'),
  entry('backup', 'copy the running gateway\'s embedded database into a file'),
  entry('call', 'any admin API operation by its client name (--list lists them), answered as JSON'),
  entry('restore', 'put a backup into DATA_DIR, the gateway stopped ([--yes])'),
  groupEntry('client', CLIENT_GROUP, `\n${' '.repeat(COLUMN)}(no admin token needed; also partner-gateway-client, of @partner-gateway/client)`),
  entry('--version', 'print the version of the gateway (and of its contract and SDK)'),
  '',
  'partner, bank, keys, audit, backup, call, operator, token and approval talk to a gateway\'s',
  'admin API:',
  '  ADMIN_URL                         admin API address (default http://127.0.0.1:8081)',
  '  PARTNER_GATEWAY_ADMIN_TOKEN       your personal token (the audit trail then names you)',
  '  PARTNER_GATEWAY_ADMIN_TOKEN_FILE  or a file holding it',
  '  ADMIN_TOKEN                       else the bootstrap admin token (default: DATA_DIR/admin-token)',
  '  DATA_DIR                          where to look for admin-token (default ./data)',
  '',
  'Exit codes: 0 done, 1 refused, 2 usage error, 3 gateway not reachable,',
  '            4 proposed (waits for a second operator\'s approval).',
  'Tables fit 100 columns, cutting long cells with …; --wide prints them whole.',
  'Run partner-gateway <command> --help for a command\'s options.',
].join('\n');

/**
 * Runs one CLI invocation and returns the process exit code: 0 on success, 1 when the gateway refused the
 * change, 2 on a usage error, 3 when the gateway is not reachable, 4 when the change waits for a second
 * operator's approval (maker-checker).
 *
 * @example
 * ```ts
 * process.exitCode = await runCli(['partner', 'list'], { env: process.env, stdin: process.stdin, stdout: process.stdout, stderr: process.stderr });
 * ```
 */
export function runCli(argv: string[], io: CliIo): Promise<number> {
  const [command, ...rest] = argv;
  return runInvocation(io, async () => {
    if (command === 'serve') {
      await import('../main.js');
      return;
    }
    // Like serve, it runs the gateway's own code on the database (loaded only when asked for), not over HTTP.
    if (command === 'migrate') return (await import('../migrate-command.js')).migrateCommand(rest, io);
    if (command === 'restore') return (await import('../restore-command.js')).restoreCommand(rest, io);
    if (command !== undefined && Object.hasOwn(ADMIN_GROUPS, command)) return runGroup(ADMIN_GROUPS[command]!, rest, io, createAdminClient(io));
    switch (command) {
      case 'audit':
        return auditCommand(rest, io, createAdminClient(io));
      case 'backup':
        return backupCommand(rest, io, createAdminClient(io));
      case 'call':
        return callCommand(rest, io, () => adminTransport(io));
      case 'client':
        return runGroup(CLIENT_GROUP, rest, io, undefined);
      case '--version':
      case '-V':
      case 'version':
        return print(io, GATEWAY_VERSION);
      case undefined:
      case 'help':
      case '--help':
      case '-h':
        return print(io, USAGE);
      default:
        throw new CliError(`Unknown command ${command}\n\n${USAGE}`, 2);
    }
  });
}
