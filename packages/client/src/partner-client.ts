import { PartnerApiError } from './partner-api-error.js';
import type { Bank, CallOptions, PartnerClientOptions } from './partner-client-options.js';
import { PasswordEncryptor } from './password-encryptor.js';
import { readBanks, readToken } from './read-answers.js';
import { sendRequest, type GatewayRequest } from './send-request.js';
import { TokenManager, type AccessToken } from './token-manager.js';
import { sleep, withRetries, type Sleep } from './with-retries.js';

// The package's public surface is this module; these are the types its methods take and return.
export { PartnerApiError, type PartnerApiErrorKind, type PartnerApiOperation } from './partner-api-error.js';
export type { Bank, CallOptions, PartnerClientInternals, PartnerClientOptions } from './partner-client-options.js';
export type { AccessToken } from './token-manager.js';
export type { Sleep } from './with-retries.js';

/**
 * The Partner Gateway API: login and the SBP bank list, with the bearer scheme (token kept and renewed for
 * you) or the encrypted-password scheme. One instance per partner account; it is safe to share between
 * concurrent calls.
 *
 * @example
 * ```ts
 * const client = new PartnerClient({ authUrl: 'https://auth.example', apiUrl: 'https://api.example', login: 'acme', password: process.env.PARTNER_PASSWORD! });
 * const banks = await client.banks();
 * ```
 */
export class PartnerClient {
  readonly #login: string;
  readonly #password: string;
  readonly #urls: { login: URL; banks: URL; jwks: URL };
  readonly #fetch: typeof globalThis.fetch;
  readonly #timeoutMs: number;
  readonly #retries: number;
  readonly #sleep: Sleep;
  readonly #random: () => number;
  readonly #now: () => number;
  readonly #tokens: TokenManager;
  readonly #encryptor: PasswordEncryptor;

  constructor(options: PartnerClientOptions) {
    if (!options.login || !options.password) throw new TypeError('PartnerClient needs a login and a password');
    const { retries = 2, timeoutMs = 10_000, internals = {} } = options;
    if (!Number.isInteger(retries) || retries < 0) throw new TypeError('retries must be a whole number, 0 or more');
    if (!(timeoutMs > 0)) throw new TypeError('timeoutMs must be a positive number of milliseconds');
    this.#login = options.login;
    this.#password = options.password;
    const api = baseUrl(options.apiUrl, 'apiUrl');
    this.#urls = {
      login: new URL('api/v1/login/', baseUrl(options.authUrl, 'authUrl')),
      banks: new URL(`partner/${encodeURIComponent(options.provider ?? 'provider')}/sbp/banks/`, api),
      jwks: new URL('.well-known/jwks.json', api),
    };
    const fetch = options.fetch ?? globalThis.fetch;
    this.#fetch = (input, init) => fetch(input, init);
    this.#timeoutMs = timeoutMs;
    this.#retries = retries;
    this.#sleep = internals.sleep ?? sleep;
    this.#random = internals.random ?? Math.random;
    this.#now = internals.now ?? Date.now;
    // Shared renewals and key fetches belong to no single caller, so they run under the client's defaults.
    this.#tokens = new TokenManager(() => this.#requestToken({}), this.#now);
    this.#encryptor = new PasswordEncryptor(() => this.#attempt({ operation: 'jwks', method: 'GET', url: this.#urls.jwks }, {}), this.#now);
  }

  /**
   * Logs in afresh and returns the new token, which later `banks()` calls then use.
   *
   * @example
   * ```ts
   * const { expiresAt } = await client.login();
   * console.log(`token valid until ${expiresAt.toISOString()}`);
   * ```
   */
  async login(options: CallOptions = {}): Promise<AccessToken> {
    const token = await this.#requestToken(options);
    this.#tokens.adopt(token);
    return token;
  }

  /**
   * The SBP banks, with the bearer token: logs in on first use, renews the token shortly before it expires,
   * and logs in once more (then repeats the call once) if the gateway refuses a token.
   *
   * @example
   * ```ts
   * for (const { bic, name } of await client.banks()) console.log(bic, name);
   * ```
   */
  async banks(options: CallOptions = {}): Promise<Bank[]> {
    const token = await this.#tokens.get(options.signal);
    try {
      return await this.#banksWithToken(token, options);
    } catch (error) {
      if (!isUnauthorized(error)) throw error;
      // Refused though unexpired by our clock: revoked, a skewed clock, a rotated signing key. Once more.
      this.#tokens.reject(token);
      return this.#banksWithToken(await this.#tokens.get(options.signal), options);
    }
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
    let usedKid = '';
    const call = () =>
      this.#retrying(options, async () => {
        const { jwe, kid } = await this.#encryptor.encrypt(this.#password, options.signal);
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

  async #requestToken(options: CallOptions): Promise<AccessToken> {
    const startedAt = this.#now();
    const body = JSON.stringify({ login: this.#login, password: this.#password });
    const request: GatewayRequest = { operation: 'login', method: 'POST', url: this.#urls.login, headers: { 'content-type': 'application/json' }, body };
    return readToken(await this.#retrying(options, () => this.#attempt(request, options)), startedAt);
  }

  async #banksWithToken(token: AccessToken, options: CallOptions): Promise<Bank[]> {
    const request: GatewayRequest = { operation: 'banks', method: 'POST', url: this.#urls.banks, headers: { authorization: `Bearer ${token.accessToken}` } };
    return readBanks(await this.#retrying(options, () => this.#attempt(request, options)));
  }

  #retrying<T>(options: CallOptions, attempt: () => Promise<T>): Promise<T> {
    return withRetries(attempt, { retries: this.#retries, signal: options.signal, sleep: this.#sleep, random: this.#random });
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

function isUnauthorized(error: unknown): boolean {
  return error instanceof PartnerApiError && error.kind === 'unauthorized';
}
