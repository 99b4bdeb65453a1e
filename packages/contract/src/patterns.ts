/**
 * The validation patterns of the wire, written once: the admin API's schemas, the console's forms and the
 * tests take them from here. Plain strings (JSON Schema `pattern`) with a RegExp beside each for code.
 */

/** A partner login: 3 to 64 characters, letters, digits and `._@-`, starting with a letter or digit. */
export const LOGIN_PATTERN = '^[A-Za-z0-9][A-Za-z0-9._@-]{2,63}$';
export const LOGIN_REGEXP = new RegExp(LOGIN_PATTERN);

/** A Russian BIC as the SBP registry holds it: nine digits starting with 04. */
export const BIC_PATTERN = '^04[0-9]{7}$';
export const BIC_REGEXP = new RegExp(BIC_PATTERN);

/** A reward type name: lower-case letters, digits and `_`, starting with a letter, up to 32 characters. */
export const REWARD_TYPE_PATTERN = '^[a-z][a-z0-9_]{0,31}$';
export const REWARD_TYPE_REGEXP = new RegExp(REWARD_TYPE_PATTERN);

/**
 * An IP allowlist entry as it travels: at most 64 characters. Whether it is an address or a CIDR without
 * host bits is decided by one function, `normalizeCidr` (src/partners/ip-allowlist.ts, bundled into the
 * console too), so that every refusal reads the same; a regular expression for IPv6 would be a second rule.
 */
export const CIDR_MAX_LENGTH = 64;

/** The reward type the banks operation requires. */
export const SBP_REWARD_TYPE = 'sbp';

/**
 * An `Authorization: Bearer <token>` header: the scheme case-insensitive, one or more spaces, a token
 * without white space, optional trailing spaces (RFC 6750 §2.1, read leniently). Group 1 is the token.
 *
 * @example
 * ```ts
 * const token = BEARER_REGEXP.exec(request.headers.authorization ?? '')?.[1];
 * ```
 */
export const BEARER_REGEXP = /^Bearer +(\S+) *$/i;
