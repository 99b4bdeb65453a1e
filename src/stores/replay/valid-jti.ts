/**
 * A jti is 1 to 128 printable ASCII characters (U+0020 to U+007E). Anything else is refused before it reaches
 * a store: a NUL byte, for one, cannot be held by PostgreSQL text, and a journal insert carrying one failed
 * again and again, holding back every jti behind it.
 *
 * @example
 * ```ts
 * isValidJti('6f1c2a90-1f0e-4b7a-9d1e-3c5b7a9e0f12'); // true
 * isValidJti('a\u0000b'); // false
 * ```
 */
export function isValidJti(jti: unknown): jti is string {
  return typeof jti === 'string' && /^[\x20-\x7e]{1,128}$/.test(jti);
}
