import { singleFlight, waitFor } from './single-flight.js';

/**
 * An access token and when it stops being accepted.
 *
 * @example
 * ```ts
 * const { accessToken, expiresAt }: AccessToken = await client.login();
 * ```
 */
export interface AccessToken {
  /** The JWT to send as `Authorization: Bearer <accessToken>`. Treat it like the password. */
  accessToken: string;
  /** Lifetime in seconds, as the gateway gave it (`expires_in`). */
  expiresIn: number;
  /** The client's clock at the login request plus `expiresIn`. */
  expiresAt: Date;
}

/**
 * Renewal starts when less than this remains, or 10% of the lifetime if that is longer (at most half of it).
 *
 * @example
 * ```ts
 * const renewAfterMs = token.expiresIn * 1000 - Math.max(MIN_RENEWAL_MARGIN_MS, token.expiresIn * 100);
 * ```
 */
export const MIN_RENEWAL_MARGIN_MS = 30_000;

/**
 * Holds the client's one access token and renews it before it expires. Renewing is whatever `obtain` does:
 * today a new login, later a refresh-token call, without callers noticing. However many calls need a token
 * at once, one `obtain` runs and they all share its result.
 *
 * @example
 * ```ts
 * const tokens = new TokenManager(() => logIn(), Date.now);
 * const { accessToken } = await tokens.get(signal);
 * ```
 */
export class TokenManager {
  #current: AccessToken | undefined;
  readonly #renew = singleFlight(async () => {
    const token = await this.obtain();
    this.#current = token;
    return token;
  });

  constructor(
    private readonly obtain: () => Promise<AccessToken>,
    private readonly now: () => number,
  ) {}

  /**
   * A token with enough life left. Aborting `signal` gives up waiting for a renewal without cancelling it:
   * other callers may be waiting for the same one.
   */
  async get(signal?: AbortSignal): Promise<AccessToken> {
    signal?.throwIfAborted();
    const current = this.#current;
    if (current && !this.#needsRenewal(current)) return current;
    return waitFor(this.#renew(), signal);
  }

  /** Uses a token obtained elsewhere (an explicit login) from now on. */
  adopt(token: AccessToken): void {
    this.#current = token;
  }

  /**
   * The gateway refused `token`: forget it so the next `get` renews, unless a newer token has already
   * replaced it (then the many calls that failed with the old token share that newer one).
   */
  reject(token: AccessToken): void {
    if (this.#current === token) this.#current = undefined;
  }

  #needsRenewal(token: AccessToken): boolean {
    const lifetimeMs = token.expiresIn * 1000;
    // Capped at half the lifetime so that a short-lived token is not renewed on every call.
    const marginMs = Math.min(Math.max(MIN_RENEWAL_MARGIN_MS, lifetimeMs / 10), lifetimeMs / 2);
    return token.expiresAt.getTime() - this.now() < marginMs;
  }
}
