// RFC 4518 section 2.2: characters mapped to nothing (soft hyphen, zero-width and joiner characters, variation
// selectors, byte order mark) and control characters other than the whitespace ones.
const MAPPED_TO_NOTHING = /[\u00ad\u034f\u1806\u180b-\u180d\u200b-\u200d\u2060\ufe00-\ufe0f\ufeff\u0000-\u0008\u000e-\u001f\u007f-\u0084\u0086-\u009f]/g;
// RFC 4518 section 2.2: every other kind of space becomes SPACE.
const SPACES = /[\t\n\u000b\f\r\u0085\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]/g;

/**
 * The form of an attribute value that equality compares (RFC 4518, simplified to what subjects need):
 * invisible characters removed, other spaces mapped to SPACE, Unicode NFKC, case folded when the type's rule
 * ignores case, then insignificant spaces removed (leading and trailing ones dropped, inner runs made one).
 * A type compared exactly (an unknown OID) keeps its value as it is.
 *
 * @example
 * ```ts
 * normalizeAttributeValue('  Acme\u00a0 Payments ', true); // 'acme payments'
 * ```
 */
export function normalizeAttributeValue(value: string, caseIgnore: boolean): string {
  if (!caseIgnore) return value;
  const mapped = value.replace(MAPPED_TO_NOTHING, '').replace(SPACES, ' ').normalize('NFKC');
  // Upper then lower approximates Unicode case folding (ß and SS, final and medial sigma fold alike).
  return mapped.toUpperCase().toLowerCase().normalize('NFKC').trim().replace(/ {2,}/g, ' ');
}
