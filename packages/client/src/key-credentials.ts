import { CLIENT_ASSERTION_TYPE_JWT_BEARER, type RevocationRequestForm, type TokenRequestForm } from '@partner-gateway/contract/oauth';
import { clientAssertion } from './client-assertion.js';
import type { DpopProofs } from './dpop-proofs.js';
import type { PrivateKeyJwt } from './partner-client-options.js';
import type { GatewayRequest } from './send-request.js';
import { signingKey, type SigningKey } from './signing-key.js';

/**
 * A partner's private_key_jwt credentials (or its TLS client certificate) and the OAuth requests made with them. Every request signs a new
 * client assertion (a new `jti`: the gateway accepts each once), so a request is built afresh for every
 * attempt, retries included. The assertion's audience is the gateway's issuer identifier, as a single string, at
 * each of its OAuth endpoints (FAPI 2.0 Security Profile, RFC 7523bis: the one audience an assertion cannot be
 * replayed from to another server with); the gateway takes no other by default.
 *
 * @example
 * ```ts
 * const credentials = new KeyCredentials('acme', { privateKey: pem, kid: 'acme-1' }, { token, revoke, issuer: 'https://partners.example' }, Date.now);
 * const request = await credentials.tokenRequest(proofs);
 * ```
 */
export class KeyCredentials {
  readonly #login: string;
  /** The signing key and its kid; undefined for a client authenticated by its TLS certificate (RFC 8705). */
  readonly #key: { key: SigningKey; kid: string } | undefined;
  readonly #urls: { token: URL; revoke: URL; issuer: string };
  readonly #now: () => number;

  /**
   * Reads the key at once, so that an unsupported one is refused when the client is built. `'tls'`: the client
   * authenticates by the certificate its connections present, and the form names only its `client_id`.
   */
  /** `urls.issuer`: the assertions' audience, unless `privateKeyJwt.issuer` names it. */
  constructor(login: string, privateKeyJwt: PrivateKeyJwt | 'tls', urls: { token: URL; revoke: URL; issuer: string }, now: () => number) {
    if (privateKeyJwt !== 'tls' && (typeof privateKeyJwt.kid !== 'string' || !privateKeyJwt.kid)) throw new TypeError('auth.privateKeyJwt needs the kid of the registered key');
    this.#login = login;
    this.#key = privateKeyJwt === 'tls' ? undefined : { key: signingKey(privateKeyJwt.privateKey), kid: privateKeyJwt.kid };
    this.#urls = privateKeyJwt !== 'tls' && privateKeyJwt.issuer !== undefined ? { ...urls, issuer: privateKeyJwt.issuer } : urls;
    this.#now = now;
  }

  /**
   * Client credentials (RFC 6749 section 4.4), with a DPoP proof for the token endpoint when `proofs` is given;
   * `scope: 'self'` asks for a token of the self-service API.
   */
  async tokenRequest(proofs: DpopProofs | undefined, scope?: 'self'): Promise<GatewayRequest> {
    const form = { grant_type: 'client_credentials', ...(scope ? { scope } : {}), ...(await this.#authentication()) } satisfies TokenRequestForm;
    const headers: Record<string, string> = { 'content-type': 'application/x-www-form-urlencoded' };
    if (proofs) headers.dpop = await proofs.proof({ htm: 'POST', url: this.#urls.token });
    return { operation: 'token', method: 'POST', url: this.#urls.token, headers, body: new URLSearchParams(form).toString() };
  }

  /** RFC 7009 revocation of `accessToken`. */
  async revocationRequest(accessToken: string): Promise<GatewayRequest> {
    const form = { token: accessToken, token_type_hint: 'access_token', ...(await this.#authentication()) } satisfies RevocationRequestForm;
    return { operation: 'revoke', method: 'POST', url: this.#urls.revoke, headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(form).toString() };
  }

  async #authentication(): Promise<{ client_id: string; client_assertion_type?: typeof CLIENT_ASSERTION_TYPE_JWT_BEARER; client_assertion?: string }> {
    if (!this.#key) return { client_id: this.#login };
    const assertion = await clientAssertion({ login: this.#login, audience: this.#urls.issuer, key: this.#key.key, kid: this.#key.kid, nowMs: this.#now() });
    return { client_id: this.#login, client_assertion_type: CLIENT_ASSERTION_TYPE_JWT_BEARER, client_assertion: assertion };
  }
}
