import { createHash, randomUUID, type KeyObject } from 'node:crypto';
import { calculateJwkThumbprint, exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK } from 'jose';
import { PartnerApiError } from './partner-api-error.js';
import { signingKey, type SigningKey } from './signing-key.js';
import type { AccessToken } from './read-answers.js';
import type { HttpMethod } from './send-request.js';

/**
 * A DPoP key pair the caller brings (to keep the same binding across restarts, or a key in an HSM-backed
 * WebCrypto provider): `{ privateKey, publicKey }` as jose or WebCrypto makes them.
 *
 * @example
 * ```ts
 * const dpopKeys: DpopKeyPair = await generateKeyPair('ES256');
 * ```
 */
export interface DpopKeyPair {
  privateKey: CryptoKey | KeyObject;
  publicKey: CryptoKey | KeyObject;
}

/**
 * What one proof is for: the method and the URL of the request (its query and fragment are dropped, RFC 9449
 * section 4.2), the access token it carries (for `ath`), and the server's nonce when it gave one.
 *
 * @example
 * ```ts
 * const target: ProofTarget = { htm: 'POST', url: new URL('https://api.example/partner/provider/sbp/banks/'), accessToken };
 * ```
 */
export interface ProofTarget {
  htm: HttpMethod;
  url: URL;
  accessToken?: string | undefined;
}

/**
 * Signs DPoP proofs (RFC 9449) with one key pair for the client's whole life: generated on first use
 * (ES256, private key not extractable) unless one is given. Remembers the latest `DPoP-Nonce` each server
 * (origin) sent and puts it in later proofs for that server (the gateway sends one with DPOP_NONCE=required).
 *
 * @example
 * ```ts
 * const proofs = new DpopProofs(undefined, Date.now);
 * const header = await proofs.proof({ htm: 'POST', url: tokenUrl });
 * ```
 */
export class DpopProofs {
  readonly #now: () => number;
  readonly #nonces = new Map<string, string>();
  /** Bumped whenever a server sends a new DPoP-Nonce: a refusal after that is worth one more try. */
  #nonceChanges = 0;
  #keys: Promise<{ key: SigningKey; jwk: JWK }> | undefined;
  readonly #given: DpopKeyPair | undefined;

  constructor(given: DpopKeyPair | undefined, now: () => number) {
    this.#given = given;
    this.#now = now;
  }

  /** A fresh proof for one request: a new `jti`, `iat` now, `ath` when a token goes with it. */
  async proof(target: ProofTarget): Promise<string> {
    const { key, jwk } = await this.#keyPair();
    const htu = `${target.url.origin}${target.url.pathname}`;
    const nonce = this.#nonces.get(target.url.origin);
    const claims: Record<string, string> = { htm: target.htm, htu };
    if (target.accessToken !== undefined) claims.ath = createHash('sha256').update(target.accessToken).digest('base64url');
    if (nonce !== undefined) claims.nonce = nonce;
    return new SignJWT(claims)
      .setProtectedHeader({ typ: 'dpop+jwt', alg: key.alg, jwk })
      .setJti(randomUUID())
      .setIssuedAt(Math.floor(this.#now() / 1000))
      .sign(key.key);
  }

  /** The RFC 7638 thumbprint of the public key: the `cnf.jkt` of every token bound to it. */
  async thumbprint(): Promise<string> {
    return calculateJwkThumbprint((await this.#keyPair()).jwk, 'sha256');
  }

  /**
   * Notes a `DPoP-Nonce` from a response of `origin`; true when it differs from the one held (so a request
   * refused for want of it is worth one more try).
   */
  noteNonce(origin: string, nonce: string | null): boolean {
    if (!nonce || this.#nonces.get(origin) === nonce) return false;
    this.#nonces.set(origin, nonce);
    this.#nonceChanges++;
    return true;
  }

  /**
   * Runs `attempt`, and once more if the server refused it asking for its nonce (400 or 401 `use_dpop_nonce`,
   * RFC 9449 sections 8 and 9) and sent a new one meanwhile; `attempt` must build a new proof each time. Any
   * other refusal is final: a refresh refused after its token was spent must never be sent again.
   */
  async withNonce<T>(attempt: () => Promise<T>): Promise<T> {
    const changesBefore = this.#nonceChanges;
    try {
      return await attempt();
    } catch (error) {
      const asksForNonce = error instanceof PartnerApiError && (error.status === 400 || error.status === 401) && error.oauthError === 'use_dpop_nonce';
      if (!asksForNonce || this.#nonceChanges === changesBefore) throw error;
      return attempt();
    }
  }

  /** `Authorization: DPoP <token>` and a proof for a request (`htm`, POST unless named) to `url` carrying it (`ath`). */
  async present(token: AccessToken, url: URL, htm: HttpMethod = 'POST'): Promise<Record<string, string>> {
    return { authorization: `DPoP ${token.accessToken}`, dpop: await this.proof({ htm, url, accessToken: token.accessToken }) };
  }

  #keyPair(): Promise<{ key: SigningKey; jwk: JWK }> {
    this.#keys ??= (async () => {
      const pair = this.#given ?? (await generateKeyPair('ES256'));
      const key = signingKey(pair.privateKey);
      const { kty, crv, x, y, n, e } = await exportJWK(pair.publicKey);
      // Only the public members RFC 7638 names go in the header: nothing private, nothing extra to leak.
      const jwk = Object.fromEntries(Object.entries({ kty, crv, x, y, n, e }).filter(([, value]) => value !== undefined)) as JWK;
      return { key, jwk };
    })();
    // A failure (an unsupported key given) is reported each time, not cached as a rejected promise forever.
    this.#keys.catch(() => (this.#keys = undefined));
    return this.#keys;
  }
}
