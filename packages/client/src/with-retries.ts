import { PartnerApiError } from './partner-api-error.js';

/**
 * Backoff before retry n + 1 is a random time below min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2^n).
 *
 * @example
 * ```ts
 * const longestFirstWait = BACKOFF_BASE_MS; // 200
 * ```
 */
export const BACKOFF_BASE_MS = 200;
/**
 * The longest backoff between two attempts.
 *
 * @example
 * ```ts
 * const longestWait = BACKOFF_CAP_MS; // 5000
 * ```
 */
export const BACKOFF_CAP_MS = 5_000;
/**
 * Longest `Retry-After` the client waits out before a retry; a longer one ends the call instead.
 *
 * @example
 * ```ts
 * if (error.retryAfterSeconds! > MAX_RETRY_AFTER_SECONDS) scheduleLater(error.retryAfterSeconds);
 * ```
 */
export const MAX_RETRY_AFTER_SECONDS = 30;

/**
 * Waits `ms`, rejecting with the signal's reason as soon as it aborts.
 *
 * @example
 * ```ts
 * const instant: Sleep = async (_ms, signal) => signal?.throwIfAborted();
 * ```
 */
export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

/**
 * When and how often to retry.
 *
 * @example
 * ```ts
 * const policy: RetryPolicy = { retries: 2, signal, sleep, random: Math.random };
 * ```
 */
export interface RetryPolicy {
  /** Extra attempts after the first. */
  retries: number;
  signal?: AbortSignal | undefined;
  sleep: Sleep;
  /** A number in [0, 1), like Math.random. */
  random: () => number;
  /** Which failures may be repeated (default: `error.retryable`); narrower for a request that must not be sent twice. */
  retryable?: ((error: PartnerApiError) => boolean) | undefined;
}

/**
 * Runs `attempt` until it succeeds, fails in a way a repeat cannot fix, or has failed `retries + 1` times.
 * `attempt` is called afresh each time, so whatever must be single-use (a JWE) is rebuilt for every try.
 *
 * @example
 * ```ts
 * const body = await withRetries(() => sendRequest(request, options), { retries: 2, sleep, random: Math.random });
 * ```
 */
export async function withRetries<T>(attempt: () => Promise<T>, policy: RetryPolicy): Promise<T> {
  for (let failures = 0; ; failures++) {
    policy.signal?.throwIfAborted();
    try {
      return await attempt();
    } catch (error) {
      if (!(error instanceof PartnerApiError) || !(policy.retryable ?? isRetryable)(error) || failures >= policy.retries) throw error;
      const delayMs = retryDelayMs(error, failures, policy.random);
      if (delayMs === undefined) throw error;
      await policy.sleep(delayMs, policy.signal);
    }
  }
}

const isRetryable = (error: PartnerApiError) => error.retryable;

/**
 * How long to wait before retry number `failures + 1`: what the gateway asked for in `Retry-After`,
 * otherwise exponential backoff with full jitter, so that many clients failing together do not come back
 * together. `undefined` when the gateway asks for more than 30 s (a lockout, say): rather than block the
 * caller that long, or come back early against its word, the client gives up and lets the caller decide.
 *
 * @example
 * ```ts
 * retryDelayMs(error, 0, Math.random); // 0..199 ms, or error.retryAfterSeconds * 1000
 * ```
 */
export function retryDelayMs(error: PartnerApiError, failures: number, random: () => number): number | undefined {
  if (error.retryAfterSeconds !== undefined) {
    return error.retryAfterSeconds <= MAX_RETRY_AFTER_SECONDS ? error.retryAfterSeconds * 1000 : undefined;
  }
  return Math.floor(random() * Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** failures));
}

/**
 * The real Sleep: a timer that an abort cancels.
 *
 * @example
 * ```ts
 * await sleep(200, AbortSignal.timeout(1_000));
 * ```
 */
export const sleep: Sleep = (ms, signal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
