import { fetchPublicResource, type ResolveHost } from '../../net/fetch-public-resource.js';
import { REGISTRY_FETCH_TIMEOUT_MS } from '../sync/fetch-registry-source.js';
import type { FetchedList } from './participants-sync.js';

/**
 * Downloads BANKS_PARTICIPANTS_URL under the registry sync's rules (src/net): its time limit, BANKS_IMPORT_MAX_BYTES,
 * https in production, never a private, loopback or link-local address, up to 3 redirects each checked anew; the
 * Content-Type it came with says JSON or CSV.
 *
 * @example
 * ```ts
 * const fetchList = participantsFetcher({ production: true, maxBytes: config.BANKS_IMPORT_MAX_BYTES });
 * const { bytes, contentType } = await fetchList('https://settlement.example/b2c/participants.json');
 * ```
 */
export function participantsFetcher(options: { production: boolean; maxBytes: number; lookup?: ResolveHost }): (url: string) => Promise<FetchedList> {
  return async (url) => {
    const resource = await fetchPublicResource(url, {
      maxBytes: options.maxBytes,
      timeoutMs: REGISTRY_FETCH_TIMEOUT_MS,
      production: options.production,
      accept: 'application/json, text/csv;q=0.9',
      maxRedirects: 3,
      ...(options.lookup ? { lookup: options.lookup } : {}),
    });
    return { bytes: resource.bytes, contentType: resource.contentType };
  };
}
