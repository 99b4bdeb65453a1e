/**
 * Whether `value` is a plain JSON object (not null, not an array): what a value read from a request, a file or
 * a document must be before its fields are looked at. A check, where a cast would only assert.
 *
 * @example
 * ```ts
 * if (isRecord(request.query) && typeof request.query.partnerName === 'string') { ... }
 * ```
 */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
