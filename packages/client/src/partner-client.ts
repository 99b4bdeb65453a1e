import { PartnerApiError } from './partner-api-error.js';
import { banksPath, JWKS_PATH, LOGIN_PATH, LOGOUT_PATH, OAUTH_REVOKE_PATH, OAUTH_TOKEN_PATH, REFRESH_PATH } from '@partner-gateway/contract/paths';
import type { BankOptInField, LoginRequest, RefreshRequest } from '@partner-gateway/contract/public-api';
import { DpopProofs } from './dpop-proofs.js';
import { createTlsFetch } from './tls-fetch.js';
import { KeyCredentials } from './key-credentials.js';
import type { Bank } from '@partner-gateway/contract/public-api';
import type { BanksAnswer, CallOptions, ConditionalBanksOptions, PartnerClientOptions } from './partner-client-options.js';
import { PasswordEncryptor } from './password-encryptor.js';
import { readBanks, readBanksWithFields, readOAuthToken, readSession, type Session } from './read-answers.js';
import { outcomeUnknown, sendRequest, sendRequestWithHeaders, type GatewayAnswer, type GatewayRequest } from './send-request.js';
import { waitFor } from './single-flight.js';
import { SelfServiceClient } from './self-service-client.js';
import { TokenManager } from './token-manager.js';
import type { AccessToken } from './read-answers.js';
import { sleep, withRetries, type Sleep } from './with-retries.js';

// The package's public surface is this module; these are the types its methods take and return.
export { PartnerApiError, type PartnerApiErrorKind, type PartnerApiOperation } from './partner-api-error.js';
export type { BanksAnswer, CallOptions, ConditionalBanksOptions, PartnerClientInternals, PartnerClientOptions, PrivateKeyJwt } from './partner-client-options.js';
export { verifyWebhook, WebhookVerificationError, type VerifyWebhookOptions, type WebhookVerificationKeys } from './verify-webhook.js';
export type { SbpBanksUpdatedEvent } from '@partner-gateway/contract/webhook-events';
export type { BankOptInField, BankWithFields } from '@partner-gateway/contract/public-api';
export type { DpopKeyPair } from './dpop-proofs.js';
export type { ClientTls } from './tls-fetch.js';
export type { PrivateKeyInput, SigningAlgorithm } from './signing-key.js';
export type { Bank } from '@partner-gateway/contract/public-api';
export type { AccessToken } from './read-answers.js';
export { encryptPassword, type EncryptPasswordOptions, type PasswordKey } from './encrypt-password.js';
export type { Sleep } from './with-retries.js';
export { SelfServiceClient } from './self-service-client.js';
export type { RotateKeyRequest, RotateKeyResponse, SelfCall, SelfCallsQuery, SelfCallsResponse, SelfKeysResponse, SelfUsageResponse } from '@partner-gateway/contract/self-service';

/**
 * The Partner Gateway API: login and the SBP bank list, with the bearer scheme (token kept and renewed for
 * you) or the encrypted-password scheme. Instead of the password, the client can authenticate with the
 * partner's private key (OAuth client credentials with private_key_jwt) and bind its tokens to a DPoP key.
 * One instance per partner account; it is safe to share between concurrent calls.
 *
 * @example
 * ```ts
 * const client = new PartnerClient({ authUrl: 'https://auth.example', apiUrl: 'https://api.example', login: 'acme', password: process.env.PARTNER_PASSWORD! });
 * const banks = await client.banks();
 * const keyed = new PartnerClient({ authUrl, apiUrl, login: 'acme', auth: { privateKeyJwt: { privateKey: pem, kid: 'acme-1' } }, dpop: true });
 * ```
 */
export class PartnerClient {
  readonly #login: string;
  readonly #password: string | undefined;
  readonly #key: KeyCredentials | undefined;
  readonly #dpop: DpopProofs | undefined;
  readonly #urls: { login: URL; refresh: URL; logout: URL; banks: URL; jwks: URL; token: URL; revoke: URL };
  readonly #fetch: typeof globalThis.fetch;
  readonly #timeoutMs: number;
  readonly #retries: number;
  readonly #sleep: Sleep;
  readonly #random: () => number;
  readonly #now: () => number;
  readonly #tokens: TokenManager;
  readonly #encryptor: PasswordEncryptor;
  readonly #apiBase: URL;
  #self: SelfServiceClient | undefined;

  constructor(options: PartnerClientOptions) {
    const privateKeyJwt = options.auth && 'privateKeyJwt' in options.auth ? options.auth.privateKeyJwt : undefined;
    const tlsClientAuth = options.auth !== undefined && 'tlsClientAuth' in options.auth && options.auth.tlsClientAuth === true;
    if (!options.login || !(options.password || privateKeyJwt || tlsClientAuth)) {
      throw new TypeError('PartnerClient needs a login and a password (or auth.privateKeyJwt, or auth.tlsClientAuth with tls)');
    }
    if (tlsClientAuth && !options.tls) throw new TypeError('auth.tlsClientAuth needs tls: { cert, key }');
    if (options.tls && options.fetch) throw new TypeError('Give either tls or your own fetch (which then presents the certificate)');
    const { retries = 2, timeoutMs = 10_000, internals = {} } = options;
    if (!Number.isInteger(retries) || retries < 0) throw new TypeError('retries must be a whole number, 0 or more');
    if (!(timeoutMs > 0)) throw new TypeError('timeoutMs must be a positive number of milliseconds');
    this.#login = options.login;
    this.#password = options.password || undefined;
    const api = baseUrl(options.apiUrl, 'apiUrl');
    this.#apiBase = api;
    const auth = baseUrl(options.authUrl, 'authUrl');
    this.#urls = {
      // Relative to the base URLs, which may carry a path prefix of their own.
      login: new URL(LOGIN_PATH.slice(1), auth),
      refresh: new URL(REFRESH_PATH.slice(1), auth),
      logout: new URL(LOGOUT_PATH.slice(1), auth),
      banks: new URL(banksPath(encodeURIComponent(options.provider ?? 'provider')).slice(1), api),
      jwks: new URL(JWKS_PATH.slice(1), api),
      token: new URL(OAUTH_TOKEN_PATH.slice(1), auth),
      revoke: new URL(OAUTH_REVOKE_PATH.slice(1), auth),
    };
    this.#timeoutMs = timeoutMs;
    this.#retries = retries;
    this.#sleep = internals.sleep ?? sleep;
    this.#random = internals.random ?? Math.random;
    this.#now = internals.now ?? Date.now;
    const keyed = privateKeyJwt ?? (tlsClientAuth ? 'tls' : undefined);
    // The gateway's issuer identifier is its public address, authUrl, unless told otherwise (privateKeyJwt.issuer).
    const issuer = auth.href.replace(/\/+$/, '');
    this.#key = keyed ? new KeyCredentials(this.#login, keyed, { token: this.#urls.token, revoke: this.#urls.revoke, issuer }, this.#now) : undefined;
    this.#dpop = options.dpop ? new DpopProofs(options.dpop === true ? undefined : options.dpop, this.#now) : undefined;
    const fetch = options.fetch ?? (options.tls ? createTlsFetch(options.tls) : globalThis.fetch);
    this.#fetch = async (input, init) => {
      const response = await fetch(input, init);
      // RFC 9449 section 8: a server may ask for its nonce in proofs (the gateway does with DPOP_NONCE=required).
      this.#dpop?.noteNonce(new URL(String(input)).origin, response.headers.get('dpop-nonce'));
      return response;
    };
    // Shared renewals and key fetches belong to no single caller, so they run under the client's defaults.
    this.#tokens = new TokenManager({ logIn: () => this.#logIn({}), refresh: (refreshToken) => this.#refresh(refreshToken, {}) }, this.#now);
    this.#encryptor = new PasswordEncryptor(() => this.#attempt({ operation: 'jwks', method: 'GET', url: this.#urls.jwks }, {}), this.#now);
  }

  /**
   * Logs in afresh (never with the refresh token) and returns the new access token, which later `banks()`
   * calls then use; the refresh token of that login is kept inside the client for renewals. With
   * `auth.privateKeyJwt`, gets a token at the token endpoint instead (client credentials, no refresh token).
   *
   * @example
   * ```ts
   * const { expiresAt } = await client.login();
   * console.log(`token valid until ${expiresAt.toISOString()}`);
   * ```
   */
  /**
   * The self-service API: the partner's keys and their rotation, its request log, its usage (SelfServiceClient).
   * Needs `auth.privateKeyJwt` or `auth.tlsClientAuth`: scope `self` is never granted to a password.
   *
   * @example
   * ```ts
   * const { calls } = await client.self.calls({ requestId: error.requestId });
   * ```
   */
  get self(): SelfServiceClient {
    const key = this.#key;
    if (!key) throw new TypeError('client.self needs auth.privateKeyJwt or auth.tlsClientAuth: the gateway grants scope self only to a key or a certificate');
    this.#self ??= new SelfServiceClient(
      {
        selfToken: async () => {
          const startedAt = this.#now();
          const attempt = async () => this.#attempt(await key.tokenRequest(this.#dpop, 'self'), {});
          return readOAuthToken(await this.#retrying({}, () => this.#withNonce(attempt)), startedAt);
        },
        present: (token, method, url) => (token.tokenType === 'DPoP' && this.#dpop ? this.#dpop.present(token, url, method) : this.#presenting(token, url)),
        send: (request, options, retryable) => this.#retrying(options, () => this.#withNonce(async () => this.#attempt(await request(), options)), retryable),
      },
      this.#apiBase,
      this.#now,
    );
    return this.#self;
  }

  async login(options: CallOptions = {}): Promise<AccessToken> {
    return this.#tokens.adopt(await this.#logIn(options));
  }

  /**
   * Ends the session: `POST /api/v1/logout/` with the access token, so that it and every refresh token of
   * its login stop working at the gateway, then forgets both tokens. A 401 means the session had already
   * ended and counts as success. If the access token has expired (or the gateway refuses it) while the
   * refresh token still lives, the client first renews with that refresh token and logs out with the new
   * access token, so no live refresh token is left behind. Without a session it sends nothing. A later
   * `banks()` logs in again. If the gateway cannot be reached, it rejects and keeps the tokens, so that
   * calling it again completes the logout.
   *
   * @example
   * ```ts
   * process.once('SIGTERM', async () => {
   *   await client.logout({ signal: AbortSignal.timeout(5_000) });
   *   process.exit(0);
   * });
   * ```
   */
  async logout(options: CallOptions = {}): Promise<void> {
    // A renewal under way would otherwise store a session after this one ended.
    await waitFor(this.#tokens.idle(), options.signal);
    const token = this.#tokens.unexpired();
    if (this.#key) {
      // Key-based: no refresh token exists; the access token is revoked at the revocation endpoint (RFC 7009).
      if (token) await this.#revoke(this.#key, token, options);
      return this.#tokens.forget();
    }
    if (token && (await this.#logOut(token, options))) return this.#tokens.forget();
    let renewed: AccessToken | undefined;
    try {
      renewed = await waitFor(this.#tokens.refreshOnly(), options.signal);
    } catch (error) {
      // Unreachable or failing: the refresh token is kept, so a later logout() can still revoke it. Any other
      // refusal (a 403) spent it, and nothing is left that this client could use or revoke.
      if (!(error instanceof PartnerApiError) || error.retryable) throw error;
    }
    if (renewed) await this.#logOut(renewed, options);
    this.#tokens.forget();
  }

  /**
   * The SBP banks, with the bearer token: logs in on first use, renews the token shortly before it expires
   * (with the refresh token, or by logging in when that is not possible), and renews once more (then repeats
   * the call once) if the gateway refuses a token.
   *
   * @example
   * ```ts
   * for (const { bic, name } of await client.banks()) console.log(bic, name);
   * ```
   */
  async banks(options: ConditionalBanksOptions & ({ ifNoneMatch: string } | { fields: readonly BankOptInField[] })): Promise<BanksAnswer>;
  async banks(options?: CallOptions): Promise<Bank[]>;
  /**
   * With `ifNoneMatch` (the ETag held) or `fields`: the answer says whether the list changed (`notModified`, from a
   * 304 without a body) or carries it with its ETag and version.
   *
   * @example
   * ```ts
   * const answer = await client.banks({ ifNoneMatch: held.etag, fields: ['sbpMemberId'] });
   * if (!answer.notModified) held = answer;
   * ```
   */
  async banks(options: ConditionalBanksOptions = {}): Promise<Bank[] | BanksAnswer> {
    const conditional = options.ifNoneMatch !== undefined || options.fields !== undefined;
    const call = async (token: AccessToken) => {
      const answer = await this.#banksWithToken(token, options);
      return conditional ? banksAnswer(answer, options.fields ?? []) : readBanks(answer.body);
    };
    return this.#tokens.withToken(call, options.signal);
  }

  /**
   * The SBP banks, with `partnerName` and the password as a single-use JWE in the query string (no token).
   * Each attempt, retries included, carries a new JWE. If the gateway refuses it, the key set is fetched
   * again, and the call repeated once if the encryption key changed.
   *
   * @example
   * ```ts
   * const banks = await client.banksWithPassword({ timeoutMs: 5_000 });
   * ```
   */
  async banksWithPassword(options: CallOptions = {}): Promise<Bank[]> {
    const password = this.#password;
    if (password === undefined) throw new TypeError('banksWithPassword() needs the password option');
    let usedKid = '';
    const call = () =>
      this.#retrying(options, async () => {
        const { jwe, kid } = await this.#encryptor.encrypt(password, options.signal);
        usedKid = kid;
        const url = new URL(this.#urls.banks);
        url.search = new URLSearchParams({ partnerName: this.#login, partnerPassword: jwe, useAuthByCert: 'Y' }).toString();
        return this.#attempt({ operation: 'banks', method: 'POST', url }, options);
      });
    try {
      return readBanks(await call());
    } catch (error) {
      if (!isUnauthorized(error)) throw error;
      const changed = await this.#retrying(options, () => this.#encryptor.reload(usedKid, options.signal));
      if (!changed) throw error;
      return readBanks(await call());
    }
  }

  async #logIn(options: CallOptions): Promise<Session> {
    if (this.#key) return this.#clientCredentials(this.#key, options);
    const startedAt = this.#now();
    const body = JSON.stringify({ login: this.#login, password: this.#password! } satisfies LoginRequest);
    // With DPoP, the seed's login binds the token too (each attempt with a proof of its own).
    const attempt = async () => {
      const headers = { 'content-type': 'application/json', ...(await this.#proofHeader('POST', this.#urls.login)) };
      return this.#attempt({ operation: 'login', method: 'POST', url: this.#urls.login, headers, body }, options);
    };
    return readSession(await this.#retrying(options, () => this.#withNonce(attempt)), startedAt, 'login');
  }

  async #refresh(refreshToken: string, options: CallOptions): Promise<Session> {
    const startedAt = this.#now();
    const body = JSON.stringify({ refresh_token: refreshToken } satisfies RefreshRequest);
    const attempt = async () => {
      const headers = { 'content-type': 'application/json', ...(await this.#proofHeader('POST', this.#urls.refresh)) };
      return this.#attempt({ operation: 'refresh', method: 'POST', url: this.#urls.refresh, headers, body }, options);
    };
    // Single-use: a retry after a failure the gateway may have acted on would present a spent token, which
    // revokes the whole login. Such a failure ends the refresh, and the renewal logs in instead. A refusal
    // asking for the DPoP nonce is not one: the gateway checks the proof before it spends the token.
    const retryable = (error: PartnerApiError) => error.retryable && !outcomeUnknown(error);
    return readSession(await this.#retrying(options, () => this.#withNonce(attempt), retryable), startedAt, 'refresh');
  }

  /** Client credentials with a private_key_jwt assertion: each attempt signs a new one (and a new proof). */
  async #clientCredentials(key: KeyCredentials, options: CallOptions): Promise<Session> {
    const startedAt = this.#now();
    const attempt = async () => this.#attempt(await key.tokenRequest(this.#dpop), options);
    return readOAuthToken(await this.#retrying(options, () => this.#withNonce(attempt)), startedAt);
  }

  /** RFC 7009: the gateway answers 200 whatever the token was, so only a failure to get an answer fails. */
  async #revoke(key: KeyCredentials, token: AccessToken, options: CallOptions): Promise<void> {
    await this.#retrying(options, async () => this.#attempt(await key.revocationRequest(token.accessToken), options));
  }

  /** `{ dpop: <proof> }` when the client binds its tokens, else nothing. */
  async #proofHeader(htm: 'POST', url: URL): Promise<Record<string, string>> {
    return this.#dpop ? { dpop: await this.#dpop.proof({ htm, url }) } : {};
  }

  /** The Authorization header (and proof) that present `token` on a request to `url`. */
  async #presenting(token: AccessToken, url: URL): Promise<Record<string, string>> {
    if (token.tokenType !== 'DPoP') return { authorization: `Bearer ${token.accessToken}` };
    if (!this.#dpop) throw new TypeError('The gateway issued a DPoP-bound token to a client without a DPoP key');
    return this.#dpop.present(token, url);
  }

  #withNonce<T>(attempt: () => Promise<T>): Promise<T> {
    return this.#dpop ? this.#dpop.withNonce(attempt) : attempt();
  }

  /** True once the gateway ended the session (204), false if it refused the token (401: expired or already ended). */
  async #logOut(token: AccessToken, options: CallOptions): Promise<boolean> {
    const attempt = async () =>
      this.#attempt({ operation: 'logout', method: 'POST', url: this.#urls.logout, headers: await this.#presenting(token, this.#urls.logout) }, options);
    try {
      await this.#retrying(options, () => this.#withNonce(attempt));
      return true;
    } catch (error) {
      if (isUnauthorized(error)) return false;
      throw error;
    }
  }

  async #banksWithToken(token: AccessToken, options: ConditionalBanksOptions): Promise<GatewayAnswer> {
    const url = new URL(this.#urls.banks);
    if (options.fields?.length) url.search = new URLSearchParams({ fields: options.fields.join(',') }).toString();
    const conditional: Record<string, string> = options.ifNoneMatch === undefined ? {} : { 'if-none-match': options.ifNoneMatch };
    // A DPoP proof is single-use, so each attempt presents the token with a proof of its own.
    const attempt = async () =>
      sendRequestWithHeaders(
        { operation: 'banks', method: 'POST', url, headers: { ...conditional, ...(await this.#presenting(token, url)) } },
        { fetch: this.#fetch, signal: options.signal, timeoutMs: options.timeoutMs ?? this.#timeoutMs, now: this.#now },
      );
    return this.#retrying(options, () => this.#withNonce(attempt));
  }

  #retrying<T>(options: CallOptions, attempt: () => Promise<T>, retryable?: (error: PartnerApiError) => boolean): Promise<T> {
    return withRetries(attempt, { retries: this.#retries, signal: options.signal, sleep: this.#sleep, random: this.#random, retryable });
  }

  #attempt(request: GatewayRequest, options: CallOptions): Promise<unknown> {
    return sendRequest(request, { fetch: this.#fetch, signal: options.signal, timeoutMs: options.timeoutMs ?? this.#timeoutMs, now: this.#now });
  }
}

function baseUrl(value: string, name: string): URL {
  let url: URL;
  try {
    url = new URL(value.endsWith('/') ? value : `${value}/`);
  } catch {
    throw new TypeError(`${name} is not a URL`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new TypeError(`${name} must be an http or https URL`);
  return url;
}

function banksAnswer(answer: GatewayAnswer, fields: readonly BankOptInField[]): BanksAnswer {
  const etag = answer.headers.get('etag');
  if (answer.status === 304) return { notModified: true, etag: etag ?? '' };
  const version = answer.headers.get('x-bank-list-version');
  return { notModified: false, banks: readBanksWithFields(answer.body, fields), etag, version: version === null ? null : Number(version) };
}

function isUnauthorized(error: unknown): boolean {
  return error instanceof PartnerApiError && error.kind === 'unauthorized';
}
