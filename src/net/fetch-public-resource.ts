import { lookup as dnsLookup } from 'node:dns/promises';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { isIP, type LookupFunction } from 'node:net';
import { isGlobalAddress, isLoopbackAddress } from './global-address.js';
import { PublicFetchError } from './public-fetch-error.js';
import { bareHost, checkPublicUrl } from './public-url.js';

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** A resolver: every address of a host name (the default is `dns.lookup(host, { all: true })`). */
export type ResolveHost = (hostname: string) => Promise<readonly ResolvedAddress[]>;

export interface PublicFetchOptions {
  /** The largest body taken: a larger `Content-Length` is refused unread, a longer stream is cut off (`too_large`). */
  maxBytes: number;
  /** The whole fetch in ms: resolution, connection, every redirect, headers and body (`timeout`). */
  timeoutMs: number;
  /**
   * Production: https only, and the host and every address it resolves to must be global (isGlobalAddress).
   * Outside production: https to any host; plain http to `localhost` or a loopback literal, every address loopback.
   */
  production: boolean;
  /** The `Accept` header (default `*\/*`). */
  accept?: string;
  /** More request headers, e.g. `If-None-Match` (a 304 answer is then returned, with no bytes). */
  headers?: Record<string, string>;
  /** Redirects followed, each target checked and resolved anew like the first URL (default 0: a 3xx is `redirect`). */
  maxRedirects?: number;
  /** Cancels the fetch (`aborted`), e.g. at shutdown. */
  signal?: AbortSignal;
  /** The method (default GET); a POST sends `body` (a webhook delivery). */
  method?: 'GET' | 'POST';
  body?: string | Uint8Array;
  /** Replaces the system resolver (tests: a name that answers differently each time). Called once per hop. */
  lookup?: ResolveHost;
}

export interface PublicResource {
  /** 2xx, or 304 when the caller sent a conditional header. */
  status: number;
  /** The body as sent (no content coding is asked for: `Accept-Encoding: identity`). */
  bytes: Uint8Array;
  /** `Content-Type` as sent, if any. */
  contentType: string | undefined;
  /** The response headers, names in lower case, repeated ones joined with ", ". */
  headers: Readonly<Record<string, string>>;
  /** The URL that answered (after redirects). */
  url: URL;
}

const systemLookup: ResolveHost = async (hostname) =>
  (await dnsLookup(hostname, { all: true, verbatim: true })).map(({ address, family }) => ({ address, family: family === 6 ? 6 : 4 }));

/**
 * GETs a URL that a partner or an operator configured, without letting it reach the gateway's own network:
 * the URL is checked (checkPublicUrl), its host resolved once, every address checked, and the connection made
 * only to those checked addresses (the resolver is not asked again, so a name cannot answer a public address
 * for the check and a private one for the connection: DNS rebinding). TLS still verifies the certificate
 * against, and sends SNI for, the host name. Throws PublicFetchError only.
 *
 * @example
 * ```ts
 * const { bytes, headers } = await fetchPublicResource('https://partner.example/jwks.json', {
 *   maxBytes: 64 * 1024, timeoutMs: 5_000, production: true, accept: 'application/json',
 * });
 * ```
 */
export async function fetchPublicResource(url: string | URL, options: PublicFetchOptions): Promise<PublicResource> {
  const deadline = AbortSignal.timeout(options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([deadline, options.signal]) : deadline;
  try {
    let target = checkPublicUrl(url, options.production);
    for (let redirects = 0; ; redirects += 1) {
      const addresses = await checkedAddresses(target, options, signal);
      const response = await get(target, addresses, options, signal);
      const status = response.statusCode ?? 0;
      const location = response.headers.location;
      if (status >= 300 && status < 400 && status !== 304 && location !== undefined) {
        response.destroy();
        if (redirects >= (options.maxRedirects ?? 0)) throw new PublicFetchError('redirect', `answered a redirect (HTTP ${status}), not followed`, status);
        target = redirectTarget(location, target, options.production);
        continue;
      }
      if ((status < 200 || status >= 300) && status !== 304) {
        response.destroy();
        throw new PublicFetchError('status', `answered HTTP ${status}`, status);
      }
      const bytes = await readBody(response, options.maxBytes);
      const headers = Object.fromEntries(Object.entries(response.headers).map(([name, value]) => [name, Array.isArray(value) ? value.join(', ') : (value ?? '')]));
      return { status, bytes, contentType: headers['content-type'], headers, url: target };
    }
  } catch (error) {
    throw asPublicFetchError(error, deadline, options);
  }
}

async function checkedAddresses(url: URL, options: PublicFetchOptions, signal: AbortSignal): Promise<ResolvedAddress[]> {
  const host = bareHost(url.hostname);
  const literal = isIP(host);
  let addresses: ResolvedAddress[];
  if (literal !== 0) addresses = [{ address: host, family: literal === 6 ? 6 : 4 }];
  else {
    const answer = await untilAborted((options.lookup ?? systemLookup)(host), signal).catch((error: unknown) => {
      throw signal.aborted ? error : new PublicFetchError('dns', 'the host name did not resolve');
    });
    addresses = answer.map(({ address }) => ({ address, family: isIP(address) === 6 ? 6 : 4 }));
  }
  if (addresses.length === 0) throw new PublicFetchError('dns', 'the host name did not resolve');
  if (url.protocol === 'http:' && !addresses.every(({ address }) => isLoopbackAddress(address))) {
    throw new PublicFetchError('address', 'the host resolves to an address that is not loopback (plain http)');
  }
  if (options.production && !addresses.every(({ address }) => isGlobalAddress(address))) {
    throw new PublicFetchError('address', 'the host resolves to a private, loopback, link-local or other non-global address');
  }
  return addresses;
}

/** Answers every lookup of the connection with the checked addresses only (Node asks with `all: true` to race families). */
export function pinnedLookup(addresses: readonly ResolvedAddress[]): LookupFunction {
  const [first] = addresses;
  return ((_hostname: string, lookupOptions: { all?: boolean }, callback: (...args: unknown[]) => void) => {
    if (lookupOptions.all) callback(null, addresses.map(({ address, family }) => ({ address, family })));
    else callback(null, first!.address, first!.family);
  }) as LookupFunction;
}

function get(url: URL, addresses: readonly ResolvedAddress[], options: PublicFetchOptions, signal: AbortSignal): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const request = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, {
      method: options.method ?? 'GET',
      // A connection of its own, never a pooled one, so every byte goes to an address checked for this fetch.
      agent: false,
      lookup: pinnedLookup(addresses),
      signal,
      headers: { ...options.headers, accept: options.accept ?? '*/*', 'accept-encoding': 'identity' },
    });
    request.once('response', resolve);
    request.on('error', reject);
    request.end(options.body);
  });
}

function redirectTarget(location: string, from: URL, production: boolean): URL {
  try {
    return checkPublicUrl(new URL(location, from), production);
  } catch (error) {
    if (error instanceof PublicFetchError) throw new PublicFetchError(error.reason, `redirects to a URL that ${error.message}`);
    throw new PublicFetchError('redirect', 'redirects to an invalid URL');
  }
}

async function readBody(response: IncomingMessage, maxBytes: number): Promise<Uint8Array> {
  const tooLarge = () => new PublicFetchError('too_large', `larger than ${maxBytes} bytes`);
  if (Number(response.headers['content-length'] ?? 0) > maxBytes) {
    response.destroy();
    throw tooLarge();
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of response as AsyncIterable<Buffer>) {
    size += chunk.byteLength;
    if (size > maxBytes) {
      response.destroy();
      throw tooLarge();
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks, size);
}

function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    if (signal.aborted) return onAbort();
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(resolve, reject).finally(() => signal.removeEventListener('abort', onAbort));
  });
}

/** System errors carry addresses in their text ("connect ECONNREFUSED 10.0.0.5:443"): only their code is kept. */
function asPublicFetchError(error: unknown, deadline: AbortSignal, options: PublicFetchOptions): PublicFetchError {
  if (error instanceof PublicFetchError) return error;
  if (deadline.aborted) return new PublicFetchError('timeout', `took longer than ${options.timeoutMs} ms`);
  if (options.signal?.aborted) return new PublicFetchError('aborted', 'the fetch was cancelled');
  const code = (error as { code?: unknown } | undefined)?.code;
  const safeCode = typeof code === 'string' && /^[A-Z0-9_]{1,64}$/.test(code) ? code : undefined;
  if (safeCode && /CERT|SELF_SIGNED|^ERR_TLS_|^ERR_SSL_/.test(safeCode)) return new PublicFetchError('tls', `the server's certificate was refused (${safeCode})`);
  return new PublicFetchError('connect', safeCode ? `the connection failed (${safeCode})` : 'the connection failed');
}
