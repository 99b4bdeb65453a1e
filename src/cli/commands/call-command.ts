import { readFileSync, statSync } from 'node:fs';
import { requestOf, type AdminTransport } from '@partner-gateway/contract/admin-api-client';
import type { AdminEndpoint } from '@partner-gateway/contract/admin-endpoint';
import { ADMIN_ENDPOINTS, listEndpoints } from '@partner-gateway/contract/admin-endpoints';
import { CliError, print, table, type CliIo } from '@partner-gateway/client/cli/cli-io';
import { parseCommand } from '@partner-gateway/client/cli/parse-command';
import { askConfirmation } from '../ask-confirmation.js';

/** The largest JSON file an argument may name (`@file`): a bank list is far smaller. */
const JSON_FILE_MAX_BYTES = 4 * 1024 * 1024;

export const CALL_USAGE = `Usage: partner-gateway call <operation> [<argument>...] [--yes]
       partner-gateway call --list

Makes any admin API call by the admin client's name for it (docs/admin-operations.md's Client
column), with the same credential, checks, audit and maker-checker as every other command, and
prints the answer as JSON. The arguments go to the call in order: as text, or as JSON when one
starts with { or [, or read from a JSON file given as @file. A call that changes data asks first
(with no terminal to ask, it needs --yes). A file upload or download has its own command. An
argument starting with - (a key id may) goes after --.

Examples:
  partner-gateway call keys.list
  partner-gateway call partners.get acme
  partner-gateway call webhooks.replay acme 3f1c0b9e-... '{"since":"2026-11-27T00:00:00Z"}' --yes
  partner-gateway call approvals.setSettings '["bank.remove","key.revoke"]' --yes`;

/** An argument as the call takes it: JSON for `{...}`, `[...]` or `@file`, text otherwise. */
function argumentOf(text: string): unknown {
  if (text.startsWith('@')) {
    const file = text.slice(1);
    let json: string;
    try {
      if (statSync(file).size > JSON_FILE_MAX_BYTES) throw new CliError(`${file} is larger than ${JSON_FILE_MAX_BYTES} bytes`, 2);
      json = readFileSync(file, 'utf8');
    } catch (error) {
      if (error instanceof CliError) throw error;
      throw new CliError(`Cannot read ${file} (${(error as NodeJS.ErrnoException).code ?? 'error'})`, 2);
    }
    return parseJson(json, file);
  }
  return text.startsWith('{') || text.startsWith('[') ? parseJson(text, 'the argument') : text;
}

function parseJson(text: string, where: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new CliError(`${where} is not JSON: ${(error as Error).message}`, 2);
  }
}

/**
 * `partner-gateway call <operation> [<argument>...]`: any declared admin endpoint, through the admin transport,
 * so that an operation without a command of its own is still a command line away.
 *
 * @example
 * ```sh
 * partner-gateway call partners.get acme
 * ```
 */
export async function callCommand(args: string[], io: CliIo, transport: () => AdminTransport): Promise<void> {
  const { values, positionals } = parseCommand(args, { list: { type: 'boolean' } }, [], CALL_USAGE);
  if (values.help) return print(io, CALL_USAGE);
  const endpoints = listEndpoints(ADMIN_ENDPOINTS);
  if (values.list) {
    return print(io, table(['OPERATION', 'METHOD', 'PATH', 'WHAT IT DOES'], endpoints.map(({ name, endpoint }) => [name, endpoint.method, endpoint.path, endpoint.summary]), { wide: true }));
  }
  const [name, ...rest] = positionals;
  if (name === undefined) throw new CliError(CALL_USAGE, 2);
  const endpoint = endpoints.find((entry) => entry.name === name)?.endpoint;
  if (endpoint === undefined) throw new CliError(`No admin operation ${name}: partner-gateway call --list lists them`, 2);
  refuseFiles(name, endpoint);
  if (rest.length < endpoint.send.length) throw new CliError(`${name} takes ${endpoint.send.length} argument${endpoint.send.length === 1 ? '' : 's'}, given ${rest.length}\n\n${CALL_USAGE}`, 2);
  const request = requestOf(endpoint, endpoint.send(...(rest.map(argumentOf) as never[])));
  if (endpoint.method !== 'GET' && values.yes !== true) {
    if (!io.stdin.isTTY) throw new CliError(`${name} changes data and there is no terminal to confirm it: pass --yes to go ahead`, 2);
    if (!(await askConfirmation(io, `${request.method} ${request.path}?`))) throw new CliError('Nothing sent.', 1);
  }
  const answer = await transport()(request);
  if (answer === undefined) return print(io, `Done: ${request.method} ${request.path}`);
  return print(io, JSON.stringify(answer, null, 2));
}

/** A file goes up or comes down through its own command, which reads, checks and writes it. */
function refuseFiles(name: string, endpoint: AdminEndpoint): void {
  if (endpoint.file === undefined && endpoint.answerAs === undefined) return;
  const own = endpoint.cli === undefined ? '' : `: use partner-gateway ${endpoint.cli}`;
  throw new CliError(`${name} ${endpoint.file ? 'sends' : 'answers'} a file${own}`, 2);
}
