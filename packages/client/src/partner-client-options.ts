import type { BankOptInField, BankWithFields } from '@partner-gateway/contract/public-api';
import type { DpopKeyPair } from './dpop-proofs.js';
import type { PrivateKeyInput } from './signing-key.js';
import type { ClientTls } from './tls-fetch.js';
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

/** `banks()` as a conditional or opt-in-fields call: the answer then says whether the list changed, with its ETag. */
export interface ConditionalBanksOptions extends CallOptions {
  /** The ETag of the list held (an earlier answer's, or a `sbp_banks.updated` event's): unchanged, the gateway answers 304 without a body. */
  ifNoneMatch?: string;
  /** Opt-in fields beside name and bic (`?fields=`), each null when unknown for a bank. */
  fields?: readonly BankOptInField[];
}

/** A conditional `banks()` answer: not modified (keep the list held), or the list with its ETag and version. */
export type BanksAnswer =
  | { notModified: true; etag: string }
  | { notModified: false; banks: BankWithFields[]; etag: string | null; version: number | null };

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
  /** Milliseconds since the epoch, for token expiry and the `iat` of JWEs, assertions and proofs (default Date.now). */
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
  /**
   * The API password: for login and `banksWithPassword()`, and for tokens when `auth` is not given. Never
   * logged, never put in an error message.
   */
  password?: string;
  /**
   * Authenticate with a private key instead of the password: tokens come from the OAuth token endpoint
   * (client credentials with a private_key_jwt assertion), and the gateway never sees a shared secret.
   */
  auth?: { privateKeyJwt: PrivateKeyJwt } | { tlsClientAuth: true };
  /**
   * The partner's client certificate (mutual TLS, RFC 8705): every connection presents it. With
   * `auth: { tlsClientAuth: true }` the certificate is the credential: tokens come from the token endpoint of
   * the gateway's mutual-TLS address (give that address as `authUrl` and `apiUrl`) and are bound to the
   * certificate, so that they work only over a connection made with it.
   */
  tls?: ClientTls;
  /**
   * Bind every token to a DPoP key (RFC 9449), so that a copied token is worthless without it: `true`
   * generates an ES256 key pair for this client, or pass a key pair of your own. Each call then carries a
   * fresh proof signed with it.
   */
  dpop?: boolean | DpopKeyPair;
  /** A fetch to use instead of the global one (a proxy agent, instrumentation). */
  fetch?: typeof globalThis.fetch;
  /** Limit for each HTTP attempt, in ms (default 10 000). */
  timeoutMs?: number;
  /** Extra attempts after a throttled, failed (5xx) or unanswered request (default 2). */
  retries?: number;
  /** @internal */
  internals?: PartnerClientInternals;
}

/**
 * The partner's own signing key, registered with the gateway (its public half) under `kid`. The algorithm
 * follows from the key: EC P-256 signs ES256, Ed25519 EdDSA, RSA PS256.
 *
 * @example
 * ```ts
 * const auth = { privateKeyJwt: { privateKey: readFileSync('partner-key.pem', 'utf8'), kid: 'acme-2026' } };
 * ```
 */
export interface PrivateKeyJwt {
  /** A CryptoKey or KeyObject, a private JWK, or a PEM string. Never logged, never put in an error message. */
  privateKey: PrivateKeyInput;
  /** The `kid` of the public key as registered for the partner. */
  kid: string;
  /**
   * The gateway's issuer identifier (the `issuer` of `{authUrl}/.well-known/oauth-authorization-server`): every
   * assertion's `aud`, as a single string (FAPI 2.0, RFC 7523bis). Default `authUrl` without a trailing slash,
   * which is the issuer unless the gateway was given another name (TOKEN_ISSUER) or `authUrl` is its mutual-TLS
   * address.
   */
  issuer?: string;
}
