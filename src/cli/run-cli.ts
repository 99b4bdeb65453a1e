import { terminalSafe } from './terminal-safe.js';
import { createAdminClient } from './admin-client.js';
import { CliError, print, type CliIo } from './cli-io.js';
import { auditCommand } from './commands/audit-command.js';
import { bankCommand } from './commands/bank-command.js';
import { clientCommand } from './commands/client-command.js';
import { keysCommand } from './commands/keys-command.js';
import { partnerCommand } from './commands/partner-command.js';

export const USAGE = `Usage: partner-gateway <command> [options]

Commands:
  serve          start the gateway (what npm start does); configured by environment variables
  partner ...    manage partners: add, list, show, block, unblock, set-ips, set-rewards, passwd, remove
  bank ...       manage the bank list: list, add, remove, import
  keys ...       list and rotate the signing and encryption keys
  audit          show or --follow the audit trail
  client ...     call the partner API as a partner: login, banks (no admin token needed)

partner, bank, keys and audit talk to a running gateway's admin API:
  ADMIN_URL      admin API address (default http://127.0.0.1:8081)
  ADMIN_TOKEN    admin token (default: the one the gateway wrote into DATA_DIR/admin-token)
  DATA_DIR       where to look for admin-token (default ./data)

Run partner-gateway <command> --help for a command's options.`;

/**
 * Runs one CLI invocation and returns the process exit code: 0 on success, 1 when the gateway refused the
 * change, 2 on a usage error, 3 when the gateway is not reachable.
 *
 * @example
 * ```ts
 * process.exitCode = await runCli(['partner', 'list'], { env: process.env, stdin: process.stdin, stdout: process.stdout, stderr: process.stderr });
 * ```
 */
export async function runCli(argv: string[], io: CliIo): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'serve':
        await import('../main.js');
        return 0;
      case 'partner':
        await partnerCommand(rest, io, createAdminClient(io));
        return 0;
      case 'bank':
        await bankCommand(rest, io, createAdminClient(io));
        return 0;
      case 'keys':
        await keysCommand(rest, io, createAdminClient(io));
        return 0;
      case 'audit':
        await auditCommand(rest, io, createAdminClient(io));
        return 0;
      case 'client':
        await clientCommand(rest, io);
        return 0;
      case undefined:
      case 'help':
      case '--help':
      case '-h':
        print(io, USAGE);
        return 0;
      default:
        throw new CliError(`Unknown command ${command}\n\n${USAGE}`, 2);
    }
  } catch (error) {
    if (error instanceof CliError) {
      // Error messages quote the server's answer (its description, the entries it refused): escaped like stdout.
      io.stderr.write(`${terminalSafe(error.message, { keepNewlines: true })}\n`);
      return error.exitCode;
    }
    throw error;
  }
}
