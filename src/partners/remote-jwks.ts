import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import { errors } from '../errors.js';
import { validatePartnerJwks, type PartnerKey } from './partner-keys.js';

/** Limits of a partner's `jwksUri` fetch. */
export const JWKS_FETCH_TIMEOUT_MS = 5_000;
export const JWKS_MAX_BYTES = 64 * 1024;
const MIN_CACHE_MS = 5 * 60_000;
const MAX_CACHE_MS = 24 * 3600_000;
/** An assertion naming an unknown kid refetches the set at most this often (a partner rolling its key). */
const REFETCH_INTERVAL_MS = 60_000;

/**
 * Refuses a `jwksUri` the gateway should not fetch: anything but `https`, except plain `http` to a loopback
 * address outside production (a partner's test setup); credentials or a fragment in the URL.
 *
 * @example
 * ```ts
 * checkJwksUri('https://partner.example/.well-known/jwks.json', true); // ok
 * checkJwksUri('http://10.0.0.5/jwks.json', false); // 422
 * ```
 */
export function checkJwksUri(value: string, production: boolean): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw errors.validationFailed([{ field: 'jwksUri', message: 'must be an absolute URL' }]);
  }
  if (url.username || url.password || url.hash) throw errors.validationFailed([{ field: 'jwksUri', message: 'must not carry credentials or a fragment' }]);
  if (url.protocol === 'https:') {
    // In production the gateway must not be pointed at its own network (SSRF): an address literal must be
    // a public one. A name is resolved and checked at each fetch (createRemoteJwks, publicOnly).
    if (production && isAddressLiteral(url.hostname) && !isPublicAddress(bareHost(url.hostname))) {
      throw errors.validationFailed([{ field: 'jwksUri', message: 'must not point at a private, loopback or link-local address' }]);
    }
    return url;
  }
  if (url.protocol === 'http:' && !production && isLoopback(url.hostname)) return url;
  throw errors.validationFailed([
    { field: 'jwksUri', message: production ? 'must be an https URL' : 'must be an https URL (plain http only to a loopback address)' },
  ]);
}

function isLoopback(hostname: string): boolean {
  if (hostname === 'localhost') return true;
  const bare = bareHost(hostname);
  return ipaddr.isValid(bare) && ipaddr.process(bare).range() === 'loopback';
}

const bareHost = (hostname: string) => (hostname.startsWith('[') ? hostname.slice(1, -1) : hostname);
const isAddressLiteral = (hostname: string) => ipaddr.isValid(bareHost(hostname));
/** Only globally routable unicast addresses (IPv4-mapped IPv6 judged as IPv4). */
const isPublicAddress = (address: string) => ipaddr.isValid(address) && ipaddr.process(address).range() === 'unicast';

/**
 * Resolves a jwksUri's host and refuses it when any address is not public. The fetch resolves the name
 * again, so a DNS answer that changes in between (rebinding) is not excluded by this check alone; it keeps
 * an operator's mistake or a partner's internal name from turning the gateway into a probe of its own network.
 */
async function assertPublicHost(uri: string): Promise<void> {
  const hostname = bareHost(new URL(uri).hostname);
  const addresses = isAddressLiteral(hostname) ? [hostname] : (await lookup(hostname, { all: true })).map((entry) => entry.address);
  if (addresses.length === 0 || !addresses.every(isPublicAddress)) throw new Error('the host resolves to a non-public address');
}

export interface RemoteJwksOptions {
  now: () => number;
  fetch?: typeof fetch;
  /** Refuse hosts that resolve to private, loopback or link-local addresses (production). */
  publicOnly?: boolean;
  /** Told of every fetch, successful or not (for the partner's key view and the logs). */
  onFetch?: (uri: string, outcome: { ok: true; keys: number } | { ok: false; error: string }) => void;
}

interface Entry {
  keys: PartnerKey[];
  freshUntil: number;
  fetchedAt: number;
}

/**
 * Partner key sets published at a `jwksUri`: fetched (5 s, 64 KiB, no redirects), kept for the response's
 * `Cache-Control: max-age` clamped to 5 minutes .. 24 hours, and fetched again early when an assertion
 * names a kid the set lacks, at most once a minute. Concurrent lookups share one fetch. A failed refetch
 * keeps the last good set until it is 24 hours old, so a partner's hosting hiccup does not lock it out.
 */
export function createRemoteJwks(options: RemoteJwksOptions) {
  const doFetch = options.fetch ?? fetch;
  const entries = new Map<string, Entry>();
  const inFlight = new Map<string, Promise<Entry | undefined>>();

  async function load(uri: string): Promise<Entry | undefined> {
    try {
      if (options.publicOnly) await assertPublicHost(uri);
      const response = await doFetch(uri, { redirect: 'error', signal: AbortSignal.timeout(JWKS_FETCH_TIMEOUT_MS), headers: { accept: 'application/json' } });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const body = await readLimited(response, JWKS_MAX_BYTES);
      const keys = await validatePartnerJwks((JSON.parse(body) as { keys?: unknown }).keys);
      const fetchedAt = options.now();
      const entry = { keys, fetchedAt, freshUntil: fetchedAt + cacheMs(response.headers.get('cache-control')) };
      entries.set(uri, entry);
      options.onFetch?.(uri, { ok: true, keys: keys.length });
      return entry;
    } catch (error) {
      options.onFetch?.(uri, { ok: false, error: error instanceof Error ? error.message.slice(0, 200) : 'fetch failed' });
      const stale = entries.get(uri);
      return stale && options.now() - stale.fetchedAt < MAX_CACHE_MS ? stale : undefined;
    }
  }

  function refresh(uri: string): Promise<Entry | undefined> {
    let pending = inFlight.get(uri);
    if (!pending) {
      pending = load(uri).finally(() => inFlight.delete(uri));
      inFlight.set(uri, pending);
    }
    return pending;
  }

  return {
    /** The keys published at `uri`; with a `kid` the cached set lacks, a refetch if the last is a minute old. */
    async keys(uri: string, kid?: string): Promise<PartnerKey[]> {
      const now = options.now();
      let entry = entries.get(uri);
      const missingKid = kid !== undefined && entry !== undefined && !entry.keys.some((key) => key.kid === kid);
      if (!entry || now >= entry.freshUntil || (missingKid && now - entry.fetchedAt >= REFETCH_INTERVAL_MS)) entry = await refresh(uri);
      return entry?.keys ?? [];
    },
    /** When `uri` was last fetched successfully by this instance, if ever. */
    fetchedAt(uri: string): Date | undefined {
      const entry = entries.get(uri);
      return entry ? new Date(entry.fetchedAt) : undefined;
    },
    /** Forgets a set (its partner's keys changed). */
    forget(uri: string): void {
      entries.delete(uri);
    },
  };
}

export type RemoteJwks = ReturnType<typeof createRemoteJwks>;

function cacheMs(cacheControl: string | null): number {
  const maxAge = /(?:^|,)\s*max-age\s*=\s*(\d+)/i.exec(cacheControl ?? '')?.[1];
  const ms = maxAge === undefined || /no-(?:store|cache)/i.test(cacheControl ?? '') ? 0 : Number(maxAge) * 1000;
  return Math.min(MAX_CACHE_MS, Math.max(MIN_CACHE_MS, ms));
}

async function readLimited(response: Response, limit: number): Promise<string> {
  const declared = Number(response.headers.get('content-length') ?? '0');
  if (declared > limit) throw new Error(`larger than ${limit} bytes`);
  const reader = response.body?.getReader();
  if (!reader) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw new Error(`larger than ${limit} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}
