/**
 * How this tab is signed in.
 *
 * - With a token (a personal token, or ADMIN_TOKEN): kept for this browser tab only (sessionStorage), so it
 *   survives a reload but not closing the tab, is never sent by the browser on its own (no request can be forged
 *   with it: no CSRF), and every call puts it in the Authorization header itself.
 * - With single sign-on: the gateway's HttpOnly session cookie, which this page never sees; the browser sends it
 *   on the console's own requests only (SameSite=Strict), and every change carries the session's CSRF token,
 *   read from GET /admin/v1/session and kept in memory.
 */
const KEY = 'partner-gateway.admin-token';

export function readToken(): string | null {
  try {
    return sessionStorage.getItem(KEY);
  } catch {
    return memoryToken;
  }
}

let memoryToken: string | null = null;
let csrfToken: string | null = null;

export function saveToken(token: string): void {
  memoryToken = token;
  try {
    sessionStorage.setItem(KEY, token);
  } catch {
    // Storage disabled: the token lives in memory until the page is left.
  }
}

export function forgetToken(): void {
  memoryToken = null;
  csrfToken = null;
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    // Nothing stored.
  }
}

/** The single sign-on session's CSRF token, once read. */
export function readCsrfToken(): string | null {
  return csrfToken;
}

export function saveCsrfToken(token: string | null): void {
  csrfToken = token;
}
