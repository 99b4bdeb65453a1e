/** How many characters of a long string's end `tailKey` keeps: 144 bits of a JWT's signature. */
const TAIL_LENGTH = 24;

/**
 * The key to look a long string up by in a Map (an access token, an Authorization header): its last 24
 * characters, which for a JWT are its signature's. A Map hashes every character of a key it has not hashed
 * before, and a ~600-character token arrives as a new string with every request: hashing it twice (the verified
 * token, the audit entry's token key) was 5 % of a bearer call's CPU (`perf`, docs/performance.md). The entry
 * must keep the whole string and the caller compare it on a hit: two strings that share a tail are a miss, never
 * one taken for the other, and an entry is only ever made for a string that passed its check.
 *
 * @example
 * ```ts
 * const known = verified.get(tailKey(token));
 * if (known !== undefined && known.token === token) return known.claims;
 * ```
 */
export function tailKey(value: string): string {
  return value.length <= TAIL_LENGTH ? value : value.slice(-TAIL_LENGTH);
}
