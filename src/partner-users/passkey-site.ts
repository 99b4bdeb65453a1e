import ipaddr from 'ipaddr.js';

/** The WebAuthn relying party the portal is: the host partners reach it by, and the origin their browsers name. */
export interface PasskeySite {
  /** The RP ID: PUBLIC_URL's host name (a passkey is bound to it). */
  rpId: string;
  /** The origin every ceremony's clientDataJSON must name: PUBLIC_URL's. */
  origin: string;
}

/**
 * The site passkeys are registered for, from the public base URL; undefined when it names an IP address, which
 * WebAuthn does not accept as an RP ID (the portal then answers 503 `passkeys_unavailable`).
 *
 * @example
 * ```ts
 * passkeySiteOf('https://partners.example.com'); // { rpId: 'partners.example.com', origin: 'https://partners.example.com' }
 * passkeySiteOf('http://127.0.0.1:3000'); // undefined
 * ```
 */
export function passkeySiteOf(publicUrl: string): PasskeySite | undefined {
  const url = new URL(publicUrl);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (ipaddr.isValid(host)) return undefined;
  return { rpId: host, origin: url.origin };
}
