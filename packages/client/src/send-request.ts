import { kindOfResponse, parseRetryAfter, PartnerApiError, type PartnerApiOperation } from './partner-api-error.js';

/** The methods the SDK sends. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

/**
 * One HTTP exchange with the gateway.
 *
 * @example
 * ```ts
 * const request: GatewayRequest = { operation: 'jwks', method: 'GET', url: new URL('https://api.example/.well-known/jwks.json') };
 * ```
 */
export interface GatewayRequest {
  operation: PartnerApiOperation;
  method: HttpMethod;
  url: URL;
  headers?: Record<string, string>;
  body?: string;
}

/**
 * How to send: the fetch, the caller's signal, the attempt's time limit and the clock (for `Retry-After`).
 *
 * @example
 * ```ts
 * const options: SendOptions = { fetch, signal, timeoutMs: 10_000, now: Date.now };
 * ```
 */
export interface SendOptions {
  fetch: typeof globalThis.fetch;
  /** The caller's signal: its abort rejects with its own reason, never as a PartnerApiError. */
  signal?: AbortSignal | undefined;
  timeoutMs: number;
  now: () => number;
}

/**
 * Sends one request (no retries) and returns the parsed JSON body of a 2xx answer (`undefined` for a 204).
 * Anything else becomes a PartnerApiError; the caller's abort is rethrown as is, so callers can tell "I gave
 * up" from "it failed".
 *
 * @example
 * ```ts
 * const jwks = await sendRequest(request, { fetch, timeoutMs: 10_000, now: Date.now });
 * ```
 */
export async function sendRequest(request: GatewayRequest, options: SendOptions): Promise<unknown> {
  return (await sendRequestWithHeaders(request, options)).body;
}

/** A 2xx or 304 answer: its status, its parsed body (undefined for 204 and 304) and its headers. */
export interface GatewayAnswer {
  status: number;
  body: unknown;
  headers: Headers;
}

/**
 * sendRequest, answering the status and headers too; a 304 (to a conditional request) is an answer, not a failure.
 *
 * @example
 * ```ts
 * const { status, headers } = await sendRequestWithHeaders({ ...request, headers: { 'if-none-match': etag } }, options);
 * ```
 */
export async function sendRequestWithHeaders(request: GatewayRequest, options: SendOptions): Promise<GatewayAnswer> {
  const { signal: callerSignal, timeoutMs } = options;
  callerSignal?.throwIfAborted();
  // Combined by hand rather than with AbortSignal.any: it works on every Node 20 and the listener on a
  // long-lived caller signal is removed after each attempt.
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new DOMException(`No answer within ${timeoutMs} ms`, 'TimeoutError'));
  }, timeoutMs);
  const forwardAbort = () => controller.abort(callerSignal?.reason);
  callerSignal?.addEventListener('abort', forwardAbort, { once: true });
  try {
    const response = await options.fetch(request.url, {
      method: request.method,
      headers: { accept: 'application/json', ...request.headers },
      ...(request.body === undefined ? {} : { body: request.body }),
      signal: controller.signal,
    });
    const text = await response.text();
    if (response.status === 304) return { status: 304, body: undefined, headers: response.headers };
    return { status: response.status, body: interpret(request.operation, response, text, options.now()), headers: response.headers };
  } catch (error) {
    if (error instanceof PartnerApiError) throw error;
    if (callerSignal?.aborted) throw callerSignal.reason;
    const code = networkCode(error);
    const description = timedOut ? `No answer within ${timeoutMs} ms` : `The gateway could not be reached (${code})`;
    const failure = new PartnerApiError({ kind: 'network', status: 0, description, operation: request.operation });
    if (!timedOut && NOT_SENT_CODES.has(code)) neverSent.add(failure);
    throw failure;
  } finally {
    clearTimeout(timer);
    callerSignal?.removeEventListener('abort', forwardAbort);
  }
}

// Failures before a connection exists: the request cannot have reached the gateway.
const NOT_SENT_CODES = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'UND_ERR_CONNECT_TIMEOUT']);
const neverSent = new WeakSet<PartnerApiError>();

/**
 * Whether a failed request may have been carried out by the gateway without the client learning so: no
 * answer after the connection was made (a timeout, a reset), or a 502 or 504 from a proxy in between. A
 * request that must not be repeated (a refresh token is single-use) is not retried after such a failure.
 *
 * @example
 * ```ts
 * if (outcomeUnknown(error)) forgetRefreshToken();
 * ```
 */
export function outcomeUnknown(error: unknown): boolean {
  if (!(error instanceof PartnerApiError)) return false;
  if (error.kind === 'network') return !neverSent.has(error);
  return error.status === 502 || error.status === 504;
}

function interpret(operation: PartnerApiOperation, response: Response, text: string, nowMs: number): unknown {
  let body: unknown;
  try {
    body = text === '' ? undefined : JSON.parse(text);
  } catch {
    body = undefined;
  }
  if (response.ok) {
    // RFC 7009 section 2.2: the client ignores the body of a revocation's 200, whatever it is.
    if (response.status === 204 || operation === 'revoke') return undefined;
    if (body === undefined) {
      throw new PartnerApiError({ kind: 'unavailable', status: response.status, description: 'The gateway answered with a body that is not JSON', operation });
    }
    return body;
  }
  const given = (body as { description_status?: unknown } | undefined)?.description_status;
  const description = typeof given === 'string' && given ? given : `The gateway answered HTTP ${response.status} without a description`;
  throw new PartnerApiError({
    kind: kindOfResponse(response.status, description),
    status: response.status,
    description,
    operation,
    retryAfterSeconds: parseRetryAfter(response.headers.get('retry-after'), nowMs),
    oauthError: oauthErrorOf(body, response.headers.get('www-authenticate')),
  });
}

/** RFC 6749's `error` in the body, else RFC 6750's `error` parameter of the challenge; only a plain code. */
function oauthErrorOf(body: unknown, challenge: string | null): string | undefined {
  const given = (body as { error?: unknown } | undefined)?.error;
  const code = typeof given === 'string' ? given : /(?:^|[\s,])error="([^"]*)"/.exec(challenge ?? '')?.[1];
  return code !== undefined && /^[a-z_]{1,64}$/.test(code) ? code : undefined;
}

// The code, or a cause's message only when it cannot hold a URL: some fetch errors quote the whole URL,
// and a banks URL may carry a JWE.
function networkCode(error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | undefined)?.cause;
  if (typeof cause?.code === 'string') return cause.code;
  if (typeof cause?.message === 'string' && cause.message && !/[/?]/.test(cause.message)) return cause.message;
  const name = (error as { name?: unknown } | undefined)?.name;
  return typeof name === 'string' ? name : 'unknown error';
}
