import { readAdminToken } from '../bootstrap/admin-token.js';
import { CliError, type CliIo } from './cli-io.js';

/**
 * The CLI's only way to change anything: the admin API. One write path means every change gets the same
 * validation (and, later, the same audit trail) whoever makes it, and PGlite keeps a single owner.
 */
export interface AdminClient {
  request<T>(method: string, path: string, body?: unknown, contentType?: string): Promise<T>;
}

export const DEFAULT_ADMIN_URL = 'http://127.0.0.1:8081';

export function createAdminClient(io: CliIo): AdminClient {
  const baseUrl = (io.env.ADMIN_URL || DEFAULT_ADMIN_URL).replace(/\/+$/, '');
  const token = readAdminToken(io.env);
  return {
    async request<T>(method: string, path: string, body?: unknown, contentType = 'application/json'): Promise<T> {
      if (!token) {
        throw new CliError(`No admin token: set ADMIN_TOKEN, or run from the directory whose ${io.env.DATA_DIR || './data'}/admin-token the gateway wrote`, 2);
      }
      let response: Response;
      try {
        response = await fetch(`${baseUrl}${path}`, {
          method,
          headers: { authorization: `Bearer ${token}`, ...(body === undefined ? {} : { 'content-type': contentType }) },
          ...(body === undefined ? {} : { body: typeof body === 'string' || body instanceof Uint8Array ? body : JSON.stringify(body) }),
          signal: AbortSignal.timeout(60_000),
        });
      } catch (error) {
        const code = (error as { cause?: { code?: string } }).cause?.code ?? (error as Error).name;
        throw new CliError(`The gateway's admin API is not reachable at ${baseUrl} (${code}). Is the gateway running (npm start)? Is ADMIN_URL right?`, 3);
      }
      if (response.status === 204) return undefined as T;
      const text = await response.text();
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch {
        throw new CliError(`Unexpected answer from ${baseUrl}${path}: HTTP ${response.status}`);
      }
      if (!response.ok) throw new CliError(describeError(response.status, parsed));
      return parsed as T;
    },
  };
}

function describeError(status: number, body: unknown): string {
  const { description_status: description, errors } = (body ?? {}) as {
    description_status?: string;
    errors?: Array<{ field?: string; line?: number; entry?: string; message: string }>;
  };
  const lines = [`Error ${status}: ${description ?? 'unknown error'}`];
  for (const error of errors ?? []) lines.push(`  - ${error.field ?? error.entry ?? `line ${error.line}`}: ${error.message}`);
  return lines.join('\n');
}
