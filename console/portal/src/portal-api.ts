import type { ErrorBody } from '@partner-gateway/contract/error-body';
import type { PortalSession } from '@partner-gateway/contract/portal';

/** A refused call, with the API's `description_status` in words. */
export class PortalError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

let csrfToken: string | undefined;

/** Keeps the session's CSRF token for the changes that follow (it lives in memory only, never in storage). */
export function remember(session: PortalSession | undefined): void {
  csrfToken = session?.csrfToken;
}

/**
 * A call of the portal's own API or the self-service API with the session's cookie (the browser sends it) and, on a
 * change, its CSRF token. A refusal becomes a PortalError carrying the API's words.
 *
 * @example
 * ```ts
 * const { keys } = await call<SelfKeysResponse>('GET', SELF_KEYS_PATH);
 * ```
 */
export async function call<T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = {};
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET' && csrfToken) headers['x-csrf-token'] = csrfToken;
  const response = await fetch(path, { method, headers, credentials: 'same-origin', ...(body === undefined ? {} : { body: JSON.stringify(body) }) });
  if (response.status === 204) return undefined as T;
  const answer = (await response.json().catch(() => ({}))) as T & Partial<ErrorBody>;
  if (!response.ok) throw new PortalError(response.status, answer.description_status ?? `HTTP ${response.status}`);
  return answer;
}

/** The error's words for the page. */
export function wordsOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
