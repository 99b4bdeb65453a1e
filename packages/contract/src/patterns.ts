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

/** What a value refused by `BIC_PATTERN` is told (the admin API's problem message, the console's hint). */
export const BIC_PROBLEM = 'must be a string of 9 digits starting with 04';

/** A bank's SBP member id: twelve digits (empty means none). */
export const SBP_MEMBER_ID_PATTERN = '^([0-9]{12})?$';

/** The longest bank name (Russian or English) the registry holds. */
export const BANK_NAME_MAX_LENGTH = 300;

/** A bank name: at least one character that is not white space, and no control character anywhere. */
export const BANK_NAME_PATTERN = '^[^\\u0000-\\u001f\\u007f]*[^\\s\\u0000-\\u001f\\u007f][^\\u0000-\\u001f\\u007f]*$';

/** An optional English bank name: no control character. */
export const BANK_NAME_EN_PATTERN = '^[^\\u0000-\\u001f\\u007f]*$';

/**
 * An RFC 3339 date-time the audit trail can search by: year 0001 to 9999 in UTC and no leap second (`:60`), which
 * `format: date-time` alone allows. On 0001-01-01 no positive offset, on 9999-12-31 no negative one: either could
 * carry the time outside the range in UTC.
 */
export const BOUNDED_DATE_TIME_PATTERN =
  '^(?!0000-)(?!0001-01-01[Tt][^Zz]*\\+(?!00:00))(?!9999-12-31[Tt][^Zz]*-(?!00:00))[0-9]{4}-[0-9]{2}-[0-9]{2}[Tt][0-9]{2}:[0-9]{2}:[0-5][0-9]';

/**
 * What a value a pattern refuses is told, by pattern: the admin API's problem messages read as the checks that
 * held the rule before the schema did, not as a regular expression.
 */
export const PATTERN_PROBLEMS: Readonly<Record<string, string>> = {
  [BIC_PATTERN]: BIC_PROBLEM,
  [BOUNDED_DATE_TIME_PATTERN]: 'must be a date-time from 0001-01-01 to 9999-12-31 in UTC, without a leap second (23:59:60)',
};

/** A reward type name: lower-case letters, digits and `_`, starting with a letter, up to 32 characters. */
export const REWARD_TYPE_PATTERN = '^[a-z][a-z0-9_]{0,31}$';
export const REWARD_TYPE_REGEXP = new RegExp(REWARD_TYPE_PATTERN);

/**
 * An IP allowlist entry as it travels: at most 64 characters. Whether it is an address or a CIDR without
 * host bits is decided by one function, `normalizeCidr` (src/partners/ip-allowlist.ts, bundled into the
 * console too), so that every refusal reads the same; a regular expression for IPv6 would be a second rule.
 */
export const CIDR_MAX_LENGTH = 64;

/**
 * A request id a caller may send as `X-Request-Id` (kept only if it is 1 to 64 of these characters; any other value
 * is replaced by a generated one), and the audit search's `requestId`. Nothing a log line or a header could be
 * split or forged with: no white space, no control character, no comma.
 */
export const REQUEST_ID_PATTERN = '^[A-Za-z0-9._-]{1,64}$';
export const REQUEST_ID_REGEXP = new RegExp(REQUEST_ID_PATTERN);

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
