import { isIP } from 'node:net';
import { isGlobalAddress, isLoopbackAddress } from './global-address.js';
import { PublicFetchError } from './public-fetch-error.js';

/**
 * Refuses a URL the gateway should not fetch, before any resolution: not an absolute URL, credentials or a
 * fragment in it (`url`); anything but `https`, except plain `http` to `localhost` or a loopback address outside
 * production (`scheme`); in production, an address literal that is not global (`address`, see
 * isGlobalAddress). A host name is checked when it is resolved, at each fetch (fetchPublicResource). The
 * error's message reads as a field message ("must be an https URL"), for a 422's details or a config error.
 *
 * @example
 * ```ts
 * checkPublicUrl('https://partner.example/.well-known/jwks.json', true).href; // the normalized URL
 * checkPublicUrl('https://[::7f00:1]/jwks.json', true); // throws PublicFetchError('address')
 * checkPublicUrl('http://127.0.0.1:8081/jwks.json', false); // ok: a test setup on loopback
 * ```
 */
export function checkPublicUrl(value: string | URL, production: boolean): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new PublicFetchError('url', 'must be an absolute URL');
  }
  if (url.username || url.password || url.hash) throw new PublicFetchError('url', 'must not carry credentials or a fragment');
  if (url.protocol === 'https:') {
    const host = bareHost(url.hostname);
    if (production && isIP(host) !== 0 && !isGlobalAddress(host)) {
      throw new PublicFetchError('address', 'must not point at a private, loopback, link-local or other non-global address');
    }
    return url;
  }
  if (url.protocol === 'http:' && !production && isLoopbackHost(url.hostname)) return url;
  throw new PublicFetchError('scheme', production ? 'must be an https URL' : 'must be an https URL (plain http only to a loopback address)');
}

/** A URL's hostname without the brackets of an IPv6 literal (what a resolver and isIP take). */
export const bareHost = (hostname: string) => (hostname.startsWith('[') ? hostname.slice(1, -1) : hostname);

function isLoopbackHost(hostname: string): boolean {
  return hostname === 'localhost' || isLoopbackAddress(bareHost(hostname));
}
