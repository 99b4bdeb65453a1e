/**
 * The console's cookies. Their names and values are the gateway's own (base64url), so reading one from the Cookie
 * header and writing it with fixed attributes needs no cookie library. The `__Host-` prefix makes the browser
 * refuse the cookie unless it is Secure, host-only and for the whole path: no subdomain can set or shadow it.
 * Chromium and Firefox treat http://127.0.0.1 and http://localhost as secure, so a local console works too.
 */
export const SESSION_COOKIE = '__Host-partner-gateway-session';
/** The single sign-on in progress: its `state`, for the callback to compare. */
export const SSO_FLOW_COOKIE = '__Host-partner-gateway-sso';

/**
 * A session cookie named `name`: HttpOnly (no script reads it), Secure, SameSite=Strict (no other site's request
 * carries it); it holds only a random id, never a token. An empty id clears it.
 */
function strictSessionCookie(name: string, sessionId: string): string {
  return `${name}=${sessionId}; Path=/; HttpOnly; Secure; SameSite=Strict${sessionId === '' ? '; Max-Age=0' : ''}`;
}

/** The console's session cookie. */
export function sessionCookie(sessionId: string): string {
  return strictSessionCookie(SESSION_COOKIE, sessionId);
}

export function clearSessionCookie(): string {
  return strictSessionCookie(SESSION_COOKIE, '');
}

/** The partner portal's session cookie, on the public listener: as strict as the console's, under its own name. */
export const PORTAL_COOKIE = '__Host-partner-gateway-portal';

export function portalSessionCookie(sessionId: string): string {
  return strictSessionCookie(PORTAL_COOKIE, sessionId);
}

export function clearPortalSessionCookie(): string {
  return strictSessionCookie(PORTAL_COOKIE, '');
}

export function readPortalSessionCookie(header: string | undefined): string | undefined {
  return readCookie(header, PORTAL_COOKIE);
}

/**
 * The sign-in's flow cookie: SameSite=Lax, because the identity provider's redirect back to the callback is a
 * navigation from another site, which a Strict cookie would not accompany; ten minutes.
 */
export function ssoFlowCookie(state: string): string {
  return `${SSO_FLOW_COOKIE}=${state}; Path=/; HttpOnly; Secure; SameSite=Lax; Max-Age=600`;
}

export function clearSsoFlowCookie(): string {
  return `${SSO_FLOW_COOKIE}=; Path=/; HttpOnly; Secure; SameSite=Lax; Max-Age=0`;
}

export function readSessionCookie(header: string | undefined): string | undefined {
  return readCookie(header, SESSION_COOKIE);
}

export function readSsoFlowCookie(header: string | undefined): string | undefined {
  return readCookie(header, SSO_FLOW_COOKIE);
}

/** The value of the cookie `name` when it is one of ours in form (base64url, 20 to 100 characters); otherwise undefined. */
function readCookie(header: string | undefined, name: string): string | undefined {
  if (header === undefined) return undefined;
  for (const pair of header.split(';')) {
    const index = pair.indexOf('=');
    if (index === -1 || pair.slice(0, index).trim() !== name) continue;
    const value = pair.slice(index + 1).trim();
    return /^[A-Za-z0-9_-]{20,100}$/.test(value) ? value : undefined;
  }
  return undefined;
}
