import { createAdminApi, type AdminApi, type AdminTransport } from '@partner-gateway/contract/admin-api-client';
import type { ProposalView } from '@partner-gateway/contract/admin-approvals';
import { describeProblem, type ErrorBody } from '@partner-gateway/contract/error-body';
import { readAdminToken } from '../bootstrap/admin-token.js';
import { CliError, type CliIo } from '@partner-gateway/client/cli/cli-io';

/**
 * The CLI's only way to change anything: the admin API, through the contract's typed client (the one the
 * console uses too). One write path means every change gets the same validation and the same audit trail
 * whoever makes it, and PGlite keeps a single owner.
 */
export const DEFAULT_ADMIN_URL = 'http://127.0.0.1:8081';

/** The exit code of a change held for a second operator's approval (maker-checker): not done, not refused. */
export const PROPOSED_EXIT_CODE = 4;

/**
 * The admin API at ADMIN_URL with the operator's personal token (PARTNER_GATEWAY_ADMIN_TOKEN or
 * PARTNER_GATEWAY_ADMIN_TOKEN_FILE) or the bootstrap ADMIN_TOKEN (or the data directory's); a refusal becomes a
 * CliError listing every problem, an unreachable gateway a CliError saying what to check, and a change that waits
 * for approval a CliError with exit code 4 naming the proposal.
 *
 * @example
 * ```ts
 * const { partners } = await createAdminClient(io).partners.list();
 * ```
 */
export function createAdminClient(io: CliIo): AdminApi {
  return createAdminApi(adminTransport(io));
}

/**
 * The transport createAdminClient's client sends through (what `partner-gateway call` sends a declared
 * endpoint's request with): the credential, the refusals and the proposals as createAdminClient says.
 */
export function adminTransport(io: CliIo): AdminTransport {
  const baseUrl = (io.env.ADMIN_URL || DEFAULT_ADMIN_URL).replace(/\/+$/, '');
  let token: string | undefined;
  let unreadable: string | undefined;
  try {
    token = readAdminToken(io.env);
  } catch (error) {
    unreadable = `Cannot read PARTNER_GATEWAY_ADMIN_TOKEN_FILE ${io.env.PARTNER_GATEWAY_ADMIN_TOKEN_FILE} (${(error as NodeJS.ErrnoException).code ?? 'error'})`;
  }
  return async ({ method, path, json, file, text: wantsText, binary }) => {
    if (unreadable) throw new CliError(unreadable, 2);
    if (!token) {
      throw new CliError(
        `No admin credential: set PARTNER_GATEWAY_ADMIN_TOKEN (your personal token) or PARTNER_GATEWAY_ADMIN_TOKEN_FILE, or ADMIN_TOKEN, or run from the directory whose ${io.env.DATA_DIR || './data'}/admin-token the gateway wrote`,
        2,
      );
    }
    const body = file ? (file.bytes as Uint8Array) : json === undefined ? undefined : JSON.stringify(json);
    const contentType = file ? file.contentType : 'application/json';
    let response: Response;
    try {
      response = await fetch(`${baseUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': contentType }) },
        ...(body === undefined ? {} : { body }),
        signal: AbortSignal.timeout(binary ? 600_000 : 60_000),
      });
    } catch (error) {
      const code = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name;
      throw new CliError(`The gateway's admin API is not reachable at ${baseUrl} (${code}). Is the gateway running (npm start)? Is ADMIN_URL right?`, 3);
    }
    if (response.status === 204) return undefined;
    // A file (the bank list's CSV): its text as sent, byte-order mark included (Excel needs it), and the version it holds.
    if (wantsText && response.ok) return { text: new TextDecoder('utf-8', { ignoreBOM: true }).decode(await response.arrayBuffer()), version: response.headers.get('x-bank-list-version') };
    if (binary && response.ok) return new Uint8Array(await response.arrayBuffer());
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      throw new CliError(`Unexpected answer from ${baseUrl}${path}: HTTP ${response.status}`);
    }
    if (response.status === 202) throw new CliError(describeProposal(parsed as ProposalView), PROPOSED_EXIT_CODE);
    if (!response.ok) throw new CliError(describeError(response.status, parsed as Partial<ErrorBody> | null));
    return parsed;
  };
}

function describeError(status: number, body: Partial<ErrorBody> | null): string {
  const lines = [`Error ${status}: ${body?.description_status ?? 'unknown error'}`];
  for (const problem of body?.errors ?? []) lines.push(`  - ${describeProblem(problem)}`);
  return lines.join('\n');
}

function describeProposal(proposal: ProposalView): string {
  return [
    `Proposed, not done: ${proposal.action} of ${proposal.target} needs a second operator's approval.`,
    `  proposal ${proposal.id}, expires ${proposal.expiresAt}`,
    `  another operator approves it with: partner-gateway approval approve ${proposal.id}`,
  ].join('\n');
}
