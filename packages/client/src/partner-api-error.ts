/**
 * What went wrong, in the terms a partner acts on:
 *
 * - `unauthorized`: wrong login or password, or a token or encrypted password the gateway refused;
 * - `blocked`, `ip_blocked`, `reward_unavailable`: the account, the calling address or the reward type is
 *   not allowed; only the account manager can change that;
 * - `invalid_request`: the request itself is wrong (a bad address, provider segment or parameter);
 * - `throttled`: too many requests; wait `retryAfterSeconds`;
 * - `unavailable`: the gateway failed (5xx) or answered something unreadable;
 * - `network`: no answer at all (connection refused, DNS, reset, timeout).
 *
 * @example
 * ```ts
 * const kind: PartnerApiErrorKind = 'throttled';
 * ```
 */
export type PartnerApiErrorKind =
  | 'unauthorized'
  | 'blocked'
  | 'ip_blocked'
  | 'reward_unavailable'
  | 'invalid_request'
  | 'throttled'
  | 'unavailable'
  | 'network';

/**
 * The operation a failure belongs to: `refresh` is a token renewal with the refresh token, `logout` the
 * end of the session, `token` a request at the OAuth token endpoint (key-based authentication) and `revoke`
 * the revocation of such a token.
 *
 * @example
 * ```ts
 * const operation: PartnerApiOperation = 'banks';
 * ```
 */
export type PartnerApiOperation = 'login' | 'refresh' | 'logout' | 'banks' | 'jwks' | 'token' | 'revoke' | 'self';

/**
 * Every failure the client reports, except the caller's own abort (which rejects with the signal's reason).
 * Its message never contains a password, token, JWE or query string, so it is safe to log.
 *
 * @example
 * ```ts
 * try {
 *   await client.banks();
 * } catch (error) {
 *   if (error instanceof PartnerApiError && error.kind === 'ip_blocked') alertAccountManager(error.description);
 *   else throw error;
 * }
 * ```
 */
export class PartnerApiError extends Error {
  override name = 'PartnerApiError';
  /** The HTTP status, or 0 when no response arrived (`network`). */
  readonly status: number;
  readonly kind: PartnerApiErrorKind;
  /** The gateway's `description_status`, or the client's own description when the gateway gave none. */
  readonly description: string;
  readonly operation: PartnerApiOperation;
  /** From a `Retry-After` header, in whole seconds, when the gateway sent one. */
  readonly retryAfterSeconds?: number;
  /**
   * The OAuth error code the gateway named, when it named one: the body's `error` (the OAuth endpoints), else
   * the `WWW-Authenticate` challenge's (`invalid_token`, `invalid_dpop_proof`, `use_dpop_nonce`).
   */
  readonly oauthError?: string;

  constructor(init: {
    kind: PartnerApiErrorKind;
    status: number;
    description: string;
    operation: PartnerApiOperation;
    retryAfterSeconds?: number | undefined;
    oauthError?: string | undefined;
  }) {
    super(`Partner API ${init.operation} failed (${init.kind}${init.status ? `, HTTP ${init.status}` : ''}): ${init.description}`);
    this.kind = init.kind;
    this.status = init.status;
    this.description = init.description;
    this.operation = init.operation;
    if (init.retryAfterSeconds !== undefined) this.retryAfterSeconds = init.retryAfterSeconds;
    if (init.oauthError !== undefined) this.oauthError = init.oauthError;
  }

  /**
   * Whether the same call may succeed if repeated later: throttling, a gateway failure (500, 502, 503, 504)
   * or no answer. The client already retried these `retries` times before giving up.
   *
   * @example
   * ```ts
   * if (error instanceof PartnerApiError && error.retryable) scheduleLater();
   * ```
   */
  get retryable(): boolean {
    return this.kind === 'network' || RETRYABLE_STATUSES.has(this.status);
  }
}

const RETRYABLE_STATUSES = new Set([429, 500, 502, 503, 504]);

// The gateway tells its three 403s apart only by text, so the texts are the contract.
const FORBIDDEN_KINDS = new Map<string, PartnerApiErrorKind>([
  ['Access to the system is blocked; contact the account manager', 'blocked'],
  ['Access from this IP address is blocked; contact the account manager', 'ip_blocked'],
  ['This reward type is not available to this partner; contact the account manager', 'reward_unavailable'],
]);

/**
 * The kind of an error response, from its status and (for 403) its exact description.
 *
 * @example
 * ```ts
 * kindOfResponse(403, 'Access from this IP address is blocked; contact the account manager'); // 'ip_blocked'
 * ```
 */
export function kindOfResponse(status: number, description: string): PartnerApiErrorKind {
  if (status === 401) return 'unauthorized';
  // An unknown 403 text is still a refusal only the account manager can lift, like a blocked account.
  if (status === 403) return FORBIDDEN_KINDS.get(description) ?? 'blocked';
  if (status === 429) return 'throttled';
  if (status >= 500) return 'unavailable';
  return 'invalid_request';
}

/**
 * Reads a `Retry-After` value (delay in seconds or an HTTP-date) as whole seconds from `nowMs`, or
 * `undefined` when it is absent or unreadable.
 *
 * @example
 * ```ts
 * parseRetryAfter(response.headers.get('retry-after'), Date.now()); // '120' -> 120
 * ```
 */
export function parseRetryAfter(value: string | null, nowMs: number): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed);
  // Every HTTP-date form starts with a day name; Date.parse alone would also take "-5" for a year.
  const date = /^[A-Za-z]{3}/.test(trimmed) ? Date.parse(trimmed) : Number.NaN;
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - nowMs) / 1000));
}
