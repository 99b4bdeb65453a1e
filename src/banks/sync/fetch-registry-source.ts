import { fetchPublicResource, type ResolveHost } from '../../net/fetch-public-resource.js';

/** How long downloading a directory may take (the Bank of Russia's ZIP is about 0.5 MB; its XML about 1 MB). */
export const REGISTRY_FETCH_TIMEOUT_MS = 30_000;

/**
 * Downloads BANKS_SYNC_URL under the rules jwksUri fetching has (src/net): a time limit, a size limit (a larger
 * body is cut off), https in production, and never a private, loopback or link-local address, the address checked
 * being the one connected to (no DNS rebinding). Up to 3 redirects, each checked anew (a registry mirror may move
 * its file). Throws PublicFetchError, whose message names no address and no query string.
 *
 * @example
 * ```ts
 * const fetchSource = registryFetcher({ production: true, maxBytes: config.BANKS_IMPORT_MAX_BYTES });
 * const bytes = await fetchSource('https://cbr.example/s/newbik'); // the ZIP or the XML, as served
 * ```
 */
export function registryFetcher(options: { production: boolean; maxBytes: number; lookup?: ResolveHost }): (url: string) => Promise<Uint8Array> {
  return async (url) => {
    const resource = await fetchPublicResource(url, {
      maxBytes: options.maxBytes,
      timeoutMs: REGISTRY_FETCH_TIMEOUT_MS,
      production: options.production,
      accept: 'application/zip, application/xml, text/xml;q=0.9, */*;q=0.1',
      maxRedirects: 3,
      ...(options.lookup ? { lookup: options.lookup } : {}),
    });
    return resource.bytes;
  };
}
