import { createPublicKey, sign, verify, type KeyObject } from 'node:crypto';
import { base64url, decodeProtectedHeader, errors, UnsecuredJWT, type JWK, type JWTPayload, type JWTVerifyOptions, type ProtectedHeaderParameters } from 'jose';

/**
 * ES256 JWTs signed and verified with `node:crypto` KeyObjects, synchronously, where jose 6 goes through WebCrypto
 * (its `crypto.subtle` jobs run on the libuv pool behind a promise each): on the project's machine jose signed
 * ES256 at 11.0 k/s against 38.8 k/s here (issue 35). Only the signature moves; everything else stays jose's:
 * the header is read by `decodeProtectedHeader`, the signature decoded by jose's strict base64url, the claims
 * decoded and checked by jose's own claim validation (`UnsecuredJWT.decode` runs `validateClaimsSet`, the code
 * `jwtVerify` runs, with the same options and the same errors: `ERR_JWT_EXPIRED`,
 * `ERR_JWT_CLAIM_VALIDATION_FAILED` with its `claim`...). The header rules `jwtVerify` applies are kept here: the
 * `alg` allowed, `crit` only for jose's one recognized extension (`b64`), an unencoded payload refused, and
 * `typ` compared as jose compares it. Other algorithms stay with jose's `jwtVerify`.
 */

/** jose's errors for what its own jwtVerify would refuse, so that callers reading `code` see no difference. */
const { JOSEAlgNotAllowed, JOSENotSupported, JWSInvalid, JWSSignatureVerificationFailed, JWTClaimValidationFailed, JWTInvalid } = errors;
/** The header of an unsecured JWT (`{"alg":"none"}`), under which jose checks the claims of a verified one. */
const NONE_HEADER = base64url.encode(JSON.stringify({ alg: 'none' }));
const ES256_SIGNATURE_BYTES = 64;

/**
 * A P-256 public key as a KeyObject, from its JWK (private members ignored: the public half only); throws for
 * any other kind of key.
 */
export function es256PublicKey(jwk: JWK): KeyObject {
  if (jwk.kty !== 'EC' || jwk.crv !== 'P-256') throw new TypeError('not a P-256 key');
  return createPublicKey({ key: { kty: 'EC', crv: 'P-256', x: jwk.x!, y: jwk.y! }, format: 'jwk' });
}

/**
 * Signs `payload` as a compact JWS with ES256 (IEEE P1363 signature, as JOSE wants it), `header` serialized in its
 * own key order. The key must be a P-256 private KeyObject.
 *
 * @example
 * ```ts
 * const token = signEs256Jwt({ alg: 'ES256', typ: 'at+jwt', kid }, claims, privateKey);
 * ```
 */
export function signEs256Jwt(header: ProtectedHeaderParameters, payload: JWTPayload, key: KeyObject): string {
  return signEs256Parts(base64url.encode(JSON.stringify(header)), payload, key);
}

/** signEs256Jwt with the header already serialized and encoded (a constant per signing key). */
export function signEs256Parts(encodedHeader: string, payload: JWTPayload, key: KeyObject): string {
  const input = `${encodedHeader}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}`;
  return `${input}.${sign('sha256', Buffer.from(input), { key, dsaEncoding: 'ieee-p1363' }).toString('base64url')}`;
}

/**
 * Verifies an ES256 compact JWT with a P-256 public KeyObject and checks its claims as jose's `jwtVerify(jwt, key,
 * options)` does; answers what it answers (payload and protected header) and throws the errors it throws.
 * `options.algorithms`, when given, must allow ES256.
 *
 * @example
 * ```ts
 * const { payload } = verifyEs256Jwt(assertion, partnerKey, { issuer: login, requiredClaims: ['exp', 'jti'] });
 * ```
 */
export function verifyEs256Jwt(jwt: string, key: KeyObject, options: JWTVerifyOptions = {}): { payload: JWTPayload; protectedHeader: ProtectedHeaderParameters } {
  const parts = jwt.split('.');
  if (parts.length !== 3) throw new JWSInvalid('Invalid Compact JWS');
  const [encodedHeader, encodedPayload, encodedSignature] = parts as [string, string, string];
  let protectedHeader: ProtectedHeaderParameters;
  try {
    protectedHeader = decodeProtectedHeader(jwt) as ProtectedHeaderParameters;
  } catch (cause) {
    throw new JWSInvalid('JWS Protected Header is invalid', { cause });
  }
  const unencodedPayload = !checkCrit(protectedHeader);
  if (protectedHeader.alg !== 'ES256' || (options.algorithms !== undefined && !options.algorithms.includes('ES256'))) {
    throw new JOSEAlgNotAllowed('"alg" (Algorithm) Header Parameter value not allowed');
  }
  let signature: Uint8Array;
  try {
    signature = base64url.decode(encodedSignature);
  } catch (cause) {
    throw new JWSInvalid('Failed to base64url decode the signature', { cause });
  }
  // The signing input must be ASCII (jose's rule for a compact payload); a base64url header and payload are.
  if (!/^[A-Za-z0-9_-]*$/.test(encodedPayload)) throw new JWSInvalid('The payload is not a valid base64url string');
  if (signature.length !== ES256_SIGNATURE_BYTES || !verify('sha256', Buffer.from(`${encodedHeader}.${encodedPayload}`), { key, dsaEncoding: 'ieee-p1363' }, signature)) {
    throw new JWSSignatureVerificationFailed();
  }
  // Refused once the signature is checked, in jwtVerify's order.
  if (unencodedPayload) throw new JWTInvalid('JWTs MUST NOT use unencoded payload');
  const { typ, algorithms: _algorithms, crit: _crit, ...claimChecks } = options;
  let payload: JWTPayload;
  try {
    ({ payload } = UnsecuredJWT.decode(`${NONE_HEADER}.${encodedPayload}.`, claimChecks));
  } catch (error) {
    // The decoding's own refusals name the unsecured JWT it was given: said as jwtVerify says them.
    if (error instanceof JWTInvalid && !(error instanceof JWTClaimValidationFailed)) throw new JWTInvalid('JWT Claims Set must be a top-level JSON object', { cause: error });
    throw error;
  }
  if (typ !== undefined && (typeof protectedHeader.typ !== 'string' || normalizeTyp(protectedHeader.typ) !== normalizeTyp(typ))) {
    throw new JWTClaimValidationFailed('unexpected "typ" JWT header value', payload, 'typ', 'check_failed');
  }
  return { payload, protectedHeader };
}

/**
 * jose's rule for `crit` when verifying: a non-empty array of non-empty names it recognizes (only `b64`), each
 * present. Answers whether the payload is base64url-encoded (`b64`, true unless `crit` names it).
 */
function checkCrit(header: ProtectedHeaderParameters): boolean {
  const { crit } = header;
  if (crit === undefined) return true;
  if (!Array.isArray(crit) || crit.length === 0 || crit.some((name) => typeof name !== 'string' || name.length === 0)) {
    throw new JWSInvalid('"crit" (Critical) Header Parameter MUST be an array of non-empty strings when present');
  }
  for (const name of crit) {
    if (name !== 'b64') throw new JOSENotSupported(`Extension Header Parameter "${name}" is not recognized`);
    if (header.b64 === undefined) throw new JWSInvalid(`Extension Header Parameter "${name}" is missing`);
  }
  if (typeof header.b64 !== 'boolean') throw new JWSInvalid('The "b64" (base64url-encode payload) Header Parameter must be a boolean');
  return header.b64;
}

/** `typ` as jose compares it: without case, with `application/` understood when no media type is given. */
function normalizeTyp(value: string): string {
  const normalized = value.toLowerCase();
  return value.includes('/') ? normalized : `application/${normalized}`;
}
