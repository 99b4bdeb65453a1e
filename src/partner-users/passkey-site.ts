import ipaddr from 'ipaddr.js';

/** The WebAuthn relying party the portal is: the host partners reach it by, and the origin their browsers name. */
export interface PasskeySite {
  /** The RP ID: PUBLIC_URL's host name (a passkey is bound to it). */
  rpId: string;
  /** The origin every ceremony's clientDataJSON must name: PUBLIC_URL's. */
  origin: string;
}

/**
 * The site passkeys are registered for, from the public base URL. WebAuthn takes no IP address as an RP ID: a
 * loopback address (the embedded default, http://127.0.0.1:3000) becomes `localhost` on the same port, which
 * browsers treat as secure, so the portal works at http://localhost:3000/portal/ out of the box; any other IP
 * address gives undefined (the portal then answers 503 `passkeys_unavailable`: set PUBLIC_URL to a host name).
 *
 * @example
 * ```ts
 * passkeySiteOf('https://partners.example.com'); // { rpId: 'partners.example.com', origin: 'https://partners.example.com' }
 * passkeySiteOf('http://127.0.0.1:3000'); // { rpId: 'localhost', origin: 'http://localhost:3000' }
 * passkeySiteOf('https://10.0.0.5'); // undefined
 * ```
 */
export function passkeySiteOf(publicUrl: string): PasskeySite | undefined {
  const url = new URL(publicUrl);
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (!ipaddr.isValid(host)) return { rpId: host, origin: url.origin };
  if (ipaddr.process(host).range() !== 'loopback') return undefined;
  url.hostname = 'localhost';
  return { rpId: 'localhost', origin: url.origin };
}
