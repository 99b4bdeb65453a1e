import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** Personal tokens start with this, so that secret scanners and people can tell one at a glance. */
export const OPERATOR_TOKEN_PREFIX = 'pgw_';

/** A new personal token: the prefix and 256 random bits, base64url. */
export function newOperatorToken(): string {
  return `${OPERATOR_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
}

/** A new console session id or sign-in state: 256 random bits, base64url. */
export function newRandomId(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * How a token or session id is stored and looked up: its SHA-256, hex. The value is 256 random bits, so no salt
 * or slow hash is needed (nothing to guess), and the hash can be the lookup key.
 */
export function secretHash(value: string): string {
  return createHash('sha256').update(value).digest('hex');
}

/**
 * The CSRF token of a console session: an HMAC of a fixed label under the session id (which only the HttpOnly
 * cookie holds), so it needs no storage and a page on another origin cannot compute or read it.
 */
export function csrfTokenOf(sessionId: string): string {
  return createHmac('sha256', sessionId).update('partner-gateway console csrf').digest('base64url');
}

/** Compares two strings in constant time (their lengths may differ). */
export function sameSecret(presented: string, expected: string): boolean {
  const a = createHash('sha256').update(presented).digest();
  const b = createHash('sha256').update(expected).digest();
  return timingSafeEqual(a, b);
}
