import { decodeJwt, decodeProtectedHeader, importJWK, jwtVerify, type CryptoKey, type JWTPayload } from 'jose';
import type { KeyObject } from 'node:crypto';
import { errors } from '../../errors.js';
import { es256PublicKey, verifyEs256Jwt } from '../../keys/es256-jwt.js';
import { isValidJti } from '../../stores/replay/single-use-jtis.js';
import { isAcceptedJwsAlg, keyAlgorithmOf, type AcceptedJwsAlg, type PartnerKey, type PartnerSigningAlg } from '../../partners/partner-keys.js';

export const CLIENT_ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

/**
 * The values a private_key_jwt assertion's `aud` may take, each only as a single string (FAPI 2.0 Security Profile,
 * RFC 7523bis): the issuer identifier, and the token endpoint's URL when the deployment still accepts it
 * (CLIENT_ASSERTION_AUDIENCES=issuer,token_endpoint).
 */
export interface AssertionAudiences {
  issuer: string;
  tokenEndpoint?: string;
}

export interface ClientAssertionCheck {
  /** The form's `client_id`, when the client sent one: it must then name the same partner as `iss`. */
  clientId?: string;
  /** The partner's registered keys, refreshed from its `jwksUri` when `kid` is one it does not hold yet. */
  keysOf(login: string, kid: string | undefined): Promise<PartnerKey[]>;
  /** What `aud` may be, as a single string: the issuer identifier (and the token endpoint's URL, when accepted). */
  audiences: AssertionAudiences;
  /** Seconds an assertion may live at most (`exp` ahead of now); RFC 7523 leaves it to us. */
  maxLifetimeSeconds: number;
  /** Seconds of clock difference tolerated for `iat` and `exp`. */
  clockToleranceSeconds: number;
  now: () => number;
}

export interface VerifiedClientAssertion {
  login: string;
  jti: string;
  /** Until when the jti must be remembered: while the assertion lives. */
  rememberUntil: Date;
  /**
   * The earliest it can have been first presented (seconds): its `iat`, or `exp` less the longest lifetime
   * allowed, whichever is later (an assertion need not carry an `iat`). Refused when the replay state was lost
   * after it (SingleUseJtis).
   */
  issuedAt: number;
}

/** Far above an assertion signed with a 4096-bit RSA key; longer input is refused before any parsing. */
const MAX_ASSERTION_LENGTH = 8192;
const imported = new WeakMap<PartnerKey, Promise<CryptoKey | Uint8Array>>();
/** ES256 keys as KeyObjects, for verifyEs256Jwt (node:crypto, several times cheaper than WebCrypto), imported once per key. */
const keyObjects = new WeakMap<PartnerKey, KeyObject>();

/**
 * `typ` values of a client assertion, compared without case and without an `application/` prefix (RFC 7515
 * section 4.1.9): RFC 7523bis's explicit type, the generic `JWT`, or none. Any other names another kind of JWT
 * (`dpop+jwt`, `at+jwt`, ...), which must never pass for a client's authentication.
 */
const ASSERTION_TYPES = ['client-authentication+jwt', 'jwt'];

/**
 * Authenticates a client by `private_key_jwt` (RFC 7523 section 3, OpenID Connect Core section 9): a JWT
 * signed with ES256, EdDSA or PS256 (never `none`, never HMAC, checked before any key is looked up) by one
 * of the partner's registered keys, typed as a client assertion or untyped, with `iss` = `sub` = its login,
 * `aud` the issuer identifier as a single string (FAPI 2.0 Security Profile, RFC 7523bis: an array, or the
 * token endpoint's URL unless `audiences` accepts it, is refused, closing the 2025 audience-injection attacks),
 * an `exp` at most `maxLifetimeSeconds` ahead, and a printable `jti` the caller then claims once. Every failure
 * is `invalid_client` (401); a wrong `typ` or `aud` says so in `error_description`, the other reasons go to the
 * logs and the audit trail only.
 *
 * @example
 * ```ts
 * const client = await verifyClientAssertion(form.client_assertion, { keysOf, audiences: { issuer }, ... });
 * if ((await replay.spend(`assertion:${client.jti}`, client)) !== 'spent') throw errors.invalidClient('client_assertion_replayed');
 * ```
 */
export async function verifyClientAssertion(assertion: string, check: ClientAssertionCheck): Promise<VerifiedClientAssertion> {
  if (assertion.length > MAX_ASSERTION_LENGTH || assertion.split('.').length !== 3) throw errors.invalidClient('malformed_client_assertion');
  let alg: AcceptedJwsAlg;
  let kid: string | undefined;
  let typ: unknown;
  let unverified: JWTPayload;
  try {
    const header = decodeProtectedHeader(assertion);
    if (!isAcceptedJwsAlg(header.alg)) throw new Error('algorithm refused');
    alg = header.alg;
    kid = typeof header.kid === 'string' ? header.kid : undefined;
    typ = header.typ;
    unverified = decodeJwt(assertion);
  } catch {
    throw errors.invalidClient('malformed_client_assertion');
  }
  if (typ !== undefined && !(typeof typ === 'string' && ASSERTION_TYPES.includes(typ.toLowerCase().replace(/^application\//, '')))) {
    throw errors.invalidClientAssertion('client_assertion_type', "the client assertion's typ must be client-authentication+jwt or JWT, or absent: it names another kind of JWT");
  }
  const login = unverified.iss;
  if (typeof login !== 'string' || login.length === 0 || login.length > 64 || unverified.sub !== login) {
    throw errors.invalidClient('malformed_client_assertion');
  }
  if (check.clientId !== undefined && check.clientId !== login) throw errors.invalidClient('malformed_client_assertion');
  const key = pickKey(await check.keysOf(login, kid), kid, keyAlgorithmOf(alg));
  if (!key) throw errors.invalidClient('client_assertion_key_unknown');

  let payload: JWTPayload;
  try {
    const options = {
      algorithms: [alg],
      issuer: login,
      subject: login,
      requiredClaims: ['exp', 'jti'],
      clockTolerance: check.clockToleranceSeconds,
      currentDate: new Date(check.now()),
    };
    ({ payload } = alg === 'ES256' ? verifyEs256Jwt(assertion, es256KeyObject(key), options) : await jwtVerify(assertion, await importedKey(key), options));
  } catch {
    throw errors.invalidClient('client_assertion_invalid');
  }
  const { issuer, tokenEndpoint } = check.audiences;
  if (typeof payload.aud !== 'string' || (payload.aud !== issuer && payload.aud !== tokenEndpoint)) {
    const accepted = tokenEndpoint === undefined ? `the issuer identifier ${issuer}` : `the issuer identifier ${issuer} (or the token endpoint ${tokenEndpoint})`;
    throw errors.invalidClientAssertion('client_assertion_audience', `the client assertion's aud must be ${accepted} as a single string`);
  }
  const now = Math.floor(check.now() / 1000);
  if (payload.exp! > now + check.maxLifetimeSeconds + check.clockToleranceSeconds) throw errors.invalidClient('client_assertion_lifetime');
  if (payload.iat !== undefined && payload.iat > now + check.clockToleranceSeconds) throw errors.invalidClient('client_assertion_lifetime');
  if (!isValidJti(payload.jti)) throw errors.invalidClient('malformed_client_assertion');
  const earliest = payload.exp! - check.maxLifetimeSeconds - check.clockToleranceSeconds;
  return {
    login,
    jti: payload.jti,
    rememberUntil: new Date((payload.exp! + check.clockToleranceSeconds + 1) * 1000),
    issuedAt: Math.max(payload.iat ?? earliest, earliest),
  };
}

/** The key the header names; without a kid, the partner's only key for that algorithm. */
function pickKey(keys: PartnerKey[], kid: string | undefined, alg: PartnerSigningAlg): PartnerKey | undefined {
  const candidates = keys.filter((key) => key.alg === alg && (kid === undefined || key.kid === kid));
  return candidates.length === 1 ? candidates[0] : undefined;
}

function es256KeyObject(key: PartnerKey): KeyObject {
  let keyObject = keyObjects.get(key);
  if (!keyObject) {
    keyObject = es256PublicKey(key.jwk);
    keyObjects.set(key, keyObject);
  }
  return keyObject;
}

function importedKey(key: PartnerKey): Promise<CryptoKey | Uint8Array> {
  let promise = imported.get(key);
  if (!promise) {
    promise = importJWK(key.jwk, key.alg);
    imported.set(key, promise);
  }
  return promise;
}
