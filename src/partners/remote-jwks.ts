import { errors } from '../errors.js';
import { fetchPublicResource, type ResolveHost } from '../net/fetch-public-resource.js';
import { PublicFetchError } from '../net/public-fetch-error.js';
import { checkPublicUrl } from '../net/public-url.js';
import { validatePartnerJwks, type PartnerKey } from './partner-keys.js';

/** Limits of a partner's `jwksUri` fetch. */
export const JWKS_FETCH_TIMEOUT_MS = 5_000;
export const JWKS_MAX_BYTES = 64 * 1024;
const MIN_CACHE_MS = 5 * 60_000;
const MAX_CACHE_MS = 24 * 3600_000;
/** An assertion naming an unknown kid refetches the set at most this often (a partner rolling its key). */
const REFETCH_INTERVAL_MS = 60_000;

/**
 * Refuses a `jwksUri` the gateway should not fetch (422 naming the rule): anything but `https`, except plain
 * `http` to a loopback address outside production (a partner's test setup); credentials or a fragment in the
 * URL; in production an address literal that is not global (checkPublicUrl). A name is resolved and its
 * addresses checked at each fetch.
 *
 * @example
 * ```ts
 * checkJwksUri('https://partner.example/.well-known/jwks.json', true); // ok
 * checkJwksUri('http://10.0.0.5/jwks.json', false); // 422
 * ```
 */
export function checkJwksUri(value: string, production: boolean): URL {
  try {
    return checkPublicUrl(value, production);
  } catch (error) {
    if (error instanceof PublicFetchError) throw errors.validationFailed([{ field: 'jwksUri', message: error.message }]);
    throw error;
  }
}

export interface RemoteJwksOptions {
  now: () => number;
  /** Production rules (fetchPublicResource): https only, every address the host resolves to global. */
  production?: boolean;
  /** Replaces the system resolver (tests). */
  lookup?: ResolveHost;
  /** Told of every fetch, successful or not (for the partner's key view and the logs). */
  onFetch?: (uri: string, outcome: { ok: true; keys: number } | { ok: false; error: string }) => void;
}

interface Entry {
  keys: PartnerKey[];
  freshUntil: number;
  fetchedAt: number;
}

/**
 * Partner key sets published at a `jwksUri`: fetched (5 s, 64 KiB, no redirects, only from the addresses its
 * host resolved to and that were checked: fetchPublicResource), kept for the response's
 * `Cache-Control: max-age` clamped to 5 minutes .. 24 hours, and fetched again early when an assertion
 * names a kid the set lacks, at most once a minute. Concurrent lookups share one fetch. A failed refetch
 * keeps the last good set until it is 24 hours old, so a partner's hosting hiccup does not lock it out.
 */
export function createRemoteJwks(options: RemoteJwksOptions) {
  const entries = new Map<string, Entry>();
  const inFlight = new Map<string, Promise<Entry | undefined>>();

  async function load(uri: string): Promise<Entry | undefined> {
    try {
      const response = await fetchPublicResource(uri, {
        maxBytes: JWKS_MAX_BYTES,
        timeoutMs: JWKS_FETCH_TIMEOUT_MS,
        production: options.production ?? false,
        accept: 'application/json',
        lookup: options.lookup,
      });
      const keys = await validatePartnerJwks((JSON.parse(new TextDecoder().decode(response.bytes)) as { keys?: unknown }).keys);
      const fetchedAt = options.now();
      const entry = { keys, fetchedAt, freshUntil: fetchedAt + cacheMs(response.headers['cache-control']) };
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

function cacheMs(cacheControl: string | undefined): number {
  const maxAge = /(?:^|,)\s*max-age\s*=\s*(\d+)/i.exec(cacheControl ?? '')?.[1];
  const ms = maxAge === undefined || /no-(?:store|cache)/i.test(cacheControl ?? '') ? 0 : Number(maxAge) * 1000;
  return Math.min(MAX_CACHE_MS, Math.max(MIN_CACHE_MS, ms));
}
