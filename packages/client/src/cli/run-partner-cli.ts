import { readFileSync } from 'node:fs';
import { print, runInvocation, type CliIo } from './cli-io.js';
import { clientCommand } from './client-command.js';

/** The package's version (its package.json, two levels up from both `src/cli/` and `dist/cli/`). */
export const CLIENT_VERSION: string = (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;

/**
 * One invocation of `partner-gateway-client`, the partner CLI: `login`, `banks`, `--help`, `--version`.
 * Answers the exit code: 0 done, 1 refused or failed, 2 usage error, 3 gateway not reachable.
 *
 * @example
 * ```ts
 * process.exitCode = await runPartnerCli(process.argv.slice(2), { env: process.env, stdin: process.stdin, stdout: process.stdout, stderr: process.stderr });
 * ```
 */
export function runPartnerCli(argv: string[], io: CliIo): Promise<number> {
  return runInvocation(io, async () => {
    if (argv[0] === '--version' || argv[0] === '-V') return print(io, CLIENT_VERSION);
    return clientCommand(argv, io, 'partner-gateway-client');
  });
}
