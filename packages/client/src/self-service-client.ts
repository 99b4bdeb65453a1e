import { SELF_CALLS_PATH, SELF_KEYS_PATH, SELF_USAGE_PATH } from '@partner-gateway/contract/paths';
import type { RotateKeyRequest, RotateKeyResponse, SelfCallsQuery, SelfCallsResponse, SelfKeysResponse, SelfUsageResponse } from '@partner-gateway/contract/self-service';
import { PartnerApiError } from './partner-api-error.js';
import type { CallOptions } from './partner-client-options.js';
import type { AccessToken, Session } from './read-answers.js';
import { outcomeUnknown, type GatewayRequest } from './send-request.js';
import { TokenManager } from './token-manager.js';

/** What the self-service client needs of the partner client: its token requests, its way of presenting a token, its sending. */
export interface SelfServiceTransport {
  /** A client-credentials token of scope `self` (bound to the client's DPoP key when it has one). */
  selfToken(): Promise<Session>;
  /** The headers presenting `token` on a `method` request to `url` (with a fresh DPoP proof for a bound token). */
  present(token: AccessToken, method: 'GET' | 'POST', url: URL): Promise<Record<string, string>>;
  /** Sends with the client's retries (only those `retryable` allows), DPoP nonce handling and time limits. */
  send(request: () => Promise<GatewayRequest>, options: CallOptions, retryable?: (error: PartnerApiError) => boolean): Promise<unknown>;
}

/**
 * The self-service API (`/api/v1/self/…`) for a partner's own automation: its keys, their rotation with an overlap
 * window, its request log and its usage. It holds a token of scope `self` of its own, apart from the one
 * `banks()` uses, taken by client credentials with the partner's key or certificate; a rotation needs the client
 * built with `dpop: true` (or a certificate), since the gateway refuses a credential change with a bearer token.
 *
 * @example
 * ```ts
 * const client = new PartnerClient({ authUrl, apiUrl, login: 'acme', auth: { privateKeyJwt: { privateKey: pem, kid: 'acme-2026' } }, dpop: true });
 * await client.self.rotateKey({ key: newPublicJwk, overlapSeconds: 3600 });
 * const { calls } = await client.self.calls({ requestId: '5f0c…' });
 * ```
 */
export class SelfServiceClient {
  readonly #transport: SelfServiceTransport;
  readonly #urls: { keys: URL; calls: URL; usage: URL };
  readonly #tokens: TokenManager;

  constructor(transport: SelfServiceTransport, base: URL, now: () => number) {
    this.#transport = transport;
    this.#urls = { keys: new URL(SELF_KEYS_PATH.slice(1), base), calls: new URL(SELF_CALLS_PATH.slice(1), base), usage: new URL(SELF_USAGE_PATH.slice(1), base) };
    // Client credentials give no refresh token: every renewal takes a new token.
    this.#tokens = new TokenManager({ logIn: () => transport.selfToken(), refresh: () => transport.selfToken() }, now);
  }

  /** The keys still accepted, each with its end (`expiresAt`) when a rotation set one. */
  async keys(options: CallOptions = {}): Promise<SelfKeysResponse> {
    return (await this.#call('GET', this.#urls.keys, undefined, options)) as SelfKeysResponse;
  }

  /**
   * Registers `body.key`; the keys held so far keep working for `overlapSeconds` (default 24 hours). Sign new
   * assertions with the new key once this resolves. Not retried after a failure whose outcome is unknown: the
   * rotation may have been made (a repeat would answer 409 key_already_registered); read `keys()` then.
   */
  async rotateKey(body: RotateKeyRequest, options: CallOptions = {}): Promise<RotateKeyResponse> {
    return (await this.#call('POST', this.#urls.keys, body, options, (error) => error.retryable && !outcomeUnknown(error))) as RotateKeyResponse;
  }

  /** The partner's calls of the last 30 days, newest first; `requestId` finds the call answered with that X-Request-Id. */
  async calls(query: SelfCallsQuery = {}, options: CallOptions = {}): Promise<SelfCallsResponse> {
    const url = new URL(this.#urls.calls);
    url.search = new URLSearchParams(Object.entries(query).filter((entry): entry is [string, string] => entry[1] !== undefined)).toString();
    return (await this.#call('GET', url, undefined, options)) as SelfCallsResponse;
  }

  /** Calls per UTC day, operation and outcome over the last 30 days. */
  async usage(options: CallOptions = {}): Promise<SelfUsageResponse> {
    return (await this.#call('GET', this.#urls.usage, undefined, options)) as SelfUsageResponse;
  }

  async #call(method: 'GET' | 'POST', url: URL, body: unknown, options: CallOptions, retryable?: (error: PartnerApiError) => boolean): Promise<unknown> {
    const attempt = (token: AccessToken) =>
      this.#transport.send(
        async () => ({
          operation: 'self',
          method,
          url,
          headers: { ...(await this.#transport.present(token, method, url)), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        }),
        options,
        retryable,
      );
    const token = await this.#tokens.get(options.signal);
    try {
      return await attempt(token);
    } catch (error) {
      if (!(error instanceof PartnerApiError) || error.kind !== 'unauthorized') throw error;
      // Refused though unexpired by our clock (revoked, a rotated signing key): once more with a new token.
      this.#tokens.reject(token);
      return attempt(await this.#tokens.get(options.signal));
    }
  }
}
