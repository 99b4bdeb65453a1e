import type { Sleep } from './with-retries.js';


/**
 * Per-call options.
 *
 * @example
 * ```ts
 * await client.banks({ signal: AbortSignal.timeout(20_000), timeoutMs: 5_000 });
 * ```
 */
export interface CallOptions {
  /** Aborts the whole call, retries and waits included; the call then rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Limit for each HTTP attempt of this call, in ms (default: the client's `timeoutMs`). */
  timeoutMs?: number;
}

/**
 * Seams for tests: a clock, a sleep and a random source. Not part of the supported API; may change in any
 * release.
 *
 * @example
 * ```ts
 * const delays: number[] = [];
 * const internals: PartnerClientInternals = { sleep: async (ms) => void delays.push(ms), random: () => 0.5 };
 * ```
 */
export interface PartnerClientInternals {
  /** Waits between retries (default: a real timer). */
  sleep?: Sleep;
  /** In [0, 1), for the backoff jitter (default Math.random). */
  random?: () => number;
  /** Milliseconds since the epoch, for token expiry and the JWE `iat` (default Date.now). */
  now?: () => number;
}

/**
 * How to reach the gateway and who the partner is.
 *
 * @example
 * ```ts
 * const options: PartnerClientOptions = { authUrl: 'https://auth.example', apiUrl: 'https://api.example', login: 'acme', password };
 * ```
 */
export interface PartnerClientOptions {
  /** The login host, `{auth_url}` of the specification. */
  authUrl: string;
  /** The partner API host, `{api_url}`. */
  apiUrl: string;
  /** The provider path segment of the banks operation (default `provider`). */
  provider?: string;
  login: string;
  /** The API password. Never logged, never put in an error message. */
  password: string;
  /** A fetch to use instead of the global one (a proxy agent, instrumentation). */
  fetch?: typeof globalThis.fetch;
  /** Limit for each HTTP attempt, in ms (default 10 000). */
  timeoutMs?: number;
  /** Extra attempts after a throttled, failed (5xx) or unanswered request (default 2). */
  retries?: number;
  /** @internal */
  internals?: PartnerClientInternals;
}
