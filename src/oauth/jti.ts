/**
 * A `jti` the gateway will remember: 1 to 128 printable ASCII characters. Anything else (control
 * characters, NUL, non-ASCII) could not be stored alike in every replay store, so it is refused up front.
 */
export function isPrintableJti(value: unknown): value is string {
  return typeof value === 'string' && /^[\x20-\x7e]{1,128}$/.test(value);
}
