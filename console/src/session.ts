/**
 * The admin token, kept for this browser tab only (sessionStorage): it survives a reload but not closing the
 * tab, is never sent by the browser on its own (so no request can be forged with it: no CSRF), and every
 * call puts it in the Authorization header itself.
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
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    // Nothing stored.
  }
}
