import { PartnerApiError } from './partner-api-error.js';
import type { AccessToken, RefreshToken, Session } from './read-answers.js';
import { outcomeUnknown } from './send-request.js';
import { singleFlight, waitFor } from './single-flight.js';


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
 * The two ways to get a session from the gateway, each one request with the client's retry rules.
 *
 * @example
 * ```ts
 * const source: SessionSource = { logIn: () => client.logIn(), refresh: (refreshToken) => client.refresh(refreshToken) };
 * ```
 */
export interface SessionSource {
  logIn(): Promise<Session>;
  /** Spends `refreshToken`; must never send it again after a failure whose outcome is unknown. */
  refresh(refreshToken: string): Promise<Session>;
}

/**
 * Holds the client's access token and refresh token and renews the access token before it expires: with the
 * refresh token while it lives, by logging in when there is none, it has expired, the gateway refused it
 * (401), or a refresh may have spent it without the answer arriving. However many calls need a token at
 * once, one renewal runs and they all share its result.
 *
 * A refresh token is taken out of the manager before it is sent and only a new one from an answer is put
 * in, so no two renewals (or a renewal and a logout) send the same one; it is put back only after a failure
 * the gateway answered without spending it, or a connection that was never made (429, 500, 503, refused).
 *
 * @example
 * ```ts
 * const tokens = new TokenManager({ logIn, refresh }, Date.now);
 * const { accessToken } = await tokens.get(signal);
 * ```
 */
export class TokenManager {
  readonly #source: SessionSource;
  readonly #now: () => number;
  #current: AccessToken | undefined;
  #refresh: RefreshToken | undefined;
  #renewal: Promise<AccessToken> | undefined;
  readonly #renew = singleFlight(async () => {
    const refreshed = await this.#refreshHeld();
    return refreshed ?? this.#store(await this.#source.logIn());
  });

  constructor(source: SessionSource, now: () => number) {
    this.#source = source;
    this.#now = now;
  }

  /**
   * A token with enough life left. Aborting `signal` gives up waiting for a renewal without cancelling it:
   * other callers may be waiting for the same one.
   */
  async get(signal?: AbortSignal): Promise<AccessToken> {
    signal?.throwIfAborted();
    const current = this.#current;
    if (current && !this.#needsRenewal(current)) return current;
    this.#renewal = this.#renew();
    return waitFor(this.#renewal, signal);
  }

  /** Uses a session obtained elsewhere (an explicit login) from now on, refresh token included. */
  adopt(session: Session): AccessToken {
    return this.#store(session);
  }

  /**
   * The gateway refused `token`: forget it so the next `get` renews, unless a newer token has already
   * replaced it (then the many calls that failed with the old token share that newer one).
   */
  reject(token: AccessToken): void {
    if (this.#current === token) this.#current = undefined;
  }

  /**
   * Runs `call` with a token; when the gateway refuses it as unauthorized although our clock says it is alive
   * (revoked, a skewed clock, a rotated signing key, sessions ended by a rotation), forgets it and runs `call` once
   * more with a renewed one. Any other failure, and a second refusal, are thrown as they are.
   *
   * @example
   * ```ts
   * const body = await tokens.withToken((token) => send(token), options.signal);
   * ```
   */
  async withToken<T>(call: (token: AccessToken) => Promise<T>, signal?: AbortSignal): Promise<T> {
    const token = await this.get(signal);
    try {
      return await call(token);
    } catch (error) {
      if (!(error instanceof PartnerApiError) || error.kind !== 'unauthorized') throw error;
      this.reject(token);
      return call(await this.get(signal));
    }
  }

  /** Resolves once no renewal is running, whatever its outcome. */
  async idle(): Promise<void> {
    await this.#renewal?.catch(() => {});
  }

  /** The access token, unless the client's clock says it has expired. */
  unexpired(): AccessToken | undefined {
    const current = this.#current;
    return current && current.expiresAt.getTime() > this.#now() ? current : undefined;
  }

  /**
   * Renews with the refresh token only, never by logging in: the new access token, or `undefined` when
   * there is no live refresh token or the gateway refused it (or may have spent it unanswered).
   */
  refreshOnly(): Promise<AccessToken | undefined> {
    return this.#refreshHeld();
  }

  /** Drops both tokens. */
  forget(): void {
    this.#current = undefined;
    this.#refresh = undefined;
  }

  async #refreshHeld(): Promise<AccessToken | undefined> {
    const refresh = this.#refresh;
    this.#refresh = undefined;
    if (!refresh || refresh.expiresAt <= this.#now()) return undefined;
    try {
      return this.#store(await this.#source.refresh(refresh.value));
    } catch (error) {
      // 401: revoked, reused or expired by the gateway's clock. Unknown outcome: it may be spent. Either way
      // only a login can renew now.
      if (error instanceof PartnerApiError && (error.kind === 'unauthorized' || outcomeUnknown(error))) return undefined;
      // The gateway answered without spending it (throttled, failed) or could not be reached: keep it for the
      // next renewal, unless a login meanwhile brought a newer one.
      if (error instanceof PartnerApiError && error.retryable) this.#refresh ??= refresh;
      throw error;
    }
  }

  #store(session: Session): AccessToken {
    this.#current = session.token;
    this.#refresh = session.refresh;
    return session.token;
  }

  #needsRenewal(token: AccessToken): boolean {
    const lifetimeMs = token.expiresIn * 1000;
    // Capped at half the lifetime so that a short-lived token is not renewed on every call.
    const marginMs = Math.min(Math.max(MIN_RENEWAL_MARGIN_MS, lifetimeMs / 10), lifetimeMs / 2);
    return token.expiresAt.getTime() - this.#now() < marginMs;
  }
}
