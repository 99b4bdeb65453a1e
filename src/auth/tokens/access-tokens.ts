import { randomUUID } from 'node:crypto';
import { SignJWT, jwtVerify, type JWTHeaderParameters } from 'jose';
import { TtlCache } from '../../cache/ttl-cache.js';
import { tailKey } from '../../cache/tail-key.js';
import { errors } from '../../errors.js';
import { signEs256Parts } from '../../keys/es256-jwt.js';
import { SIGNING_ALG, type KeyStore } from '../../keys/key-store.js';
import type { Partner } from '../../partners/partner.js';

export interface AccessTokenOptions {
  keys: KeyStore;
  issuer: string;
  audience: string;
  /** Lifetime in seconds; becomes `expires_in` and `exp - iat`. */
  ttlSeconds: number;
  now?: () => number;
  /** Verified tokens remembered until they expire, so a token is checked cryptographically once (0 disables). */
  verifiedCacheSize?: number;
}

export interface IssuedToken {
  accessToken: string;
  expiresIn: number;
}

/** What a verified access token says. */
export interface AccessTokenClaims {
  /** The key that signed it: a token whose key was revoked is refused even if it verified before. */
  kid: string;
  partnerId: string;
  login: string;
  jti: string;
  expiresAt: number;
  /** The token family (one login and its refreshes); logout and refresh-token reuse revoke it. */
  familyId: string;
  /** The partner's token generation when issued; blocking, deleting or a new password moves it on. */
  generation: number;
  issuedAt: number;
  /** RFC 9449 `cnf.jkt`: the thumbprint of the DPoP key the token is bound to; absent for a bearer token. */
  jkt?: string;
  /** RFC 8705 `cnf["x5t#S256"]`: the thumbprint of the client certificate the token is bound to; absent when unbound. */
  x5t?: string;
  /**
   * A client-credentials token (`gty: "client-credentials"`): its family is access-only and stored only once
   * revoked, so no stored family means a live one (token-family-state.ts). False for a login's token.
   */
  accessOnly: boolean;
  /** RFC 9068 `scope` holds `self`: the token may call the self-service API (`/api/v1/self/…`). */
  self: boolean;
}

export interface AccessTokens {
  /**
   * Signs a token for the partner in the grant's family; bound to a DPoP key (`cnf.jkt`, RFC 9449 section 6)
   * and/or a client certificate (`cnf["x5t#S256"]`, RFC 8705) when the grant names them; with `accessOnly`, a
   * client-credentials token whose family is stored only once revoked.
   */
  issue(partner: Pick<Partner, 'id' | 'login' | 'tokenGeneration'>, grant: TokenGrant): Promise<IssuedToken>;
  /** The `iss` and `aud` every token carries (for introspection answers). */
  readonly issuer: string;
  readonly audience: string;
  /** Verifies a bearer token; throws the 401 (with `WWW-Authenticate: Bearer error="invalid_token"`) otherwise. */
  verify(token: string): Promise<AccessTokenClaims>;
}

/** What a token is issued under: its family, what it is bound to (a DPoP key and/or a client certificate), and its kind. */
export interface TokenGrant {
  /** The token family (one login and its refreshes, or one client-credentials token). */
  familyId: string;
  /** The RFC 7638 thumbprint of the DPoP key the token is bound to (RFC 9449). */
  jkt?: string | undefined;
  /** The SHA-256 thumbprint of the client certificate the token is bound to (RFC 8705). */
  x5t?: string | undefined;
  /** A client-credentials token (`gty`), whose family is stored only once revoked. */
  accessOnly?: boolean;
  /** Scope `self` (RFC 9068 `scope`): the self-service API, granted only to a client that proved a key or certificate. */
  self?: boolean;
}

/** Far longer than any token we issue (about 600 bytes); longer input is refused before any parsing. */
const MAX_TOKEN_LENGTH = 4096;

/** The scope of the self-service API. */
export const SELF_SCOPE = 'self';

/** The `gty` of a client-credentials token. */
const CLIENT_CREDENTIALS_GTY = 'client-credentials';

export const invalidTokenHeader = { 'www-authenticate': 'Bearer error="invalid_token"' };

/**
 * Access tokens in the RFC 9068 profile: a JWT with header `typ: at+jwt` and the active `kid`, signed with
 * ES256, carrying `iss`, `aud`, `sub` (the partner's id), `client_id` (its login), `iat`, `exp`, `jti`, and
 * `sid` (the token family) and `gen` (the partner's token generation) for revocation, `cnf.jkt` when the
 * token is bound to a DPoP key, and `gty: "client-credentials"` (Auth0's claim for the grant) on a
 * client-credentials token, whose family is stored only once revoked, and `scope: "self"` on one granted the
 * self-service API.
 * Verification follows RFC 8725: only ES256, only our issuer and audience, only `typ: at+jwt`, only keys
 * we hold, and `crit` headers refused.
 */
export function createAccessTokens(options: AccessTokenOptions): AccessTokens {
  const now = options.now ?? (() => Date.now());
  // A token's claims never change, and whether it is revoked is checked on every use anyway (partner
  // generation, family), so a verified token can be trusted until its exp without verifying it again.
  // Looked up by the token's tail (tailKey), the whole token compared on a hit.
  const verified = new TtlCache<string, { token: string; claims: AccessTokenClaims }>(0, Math.max(1, options.verifiedCacheSize ?? 100_000), now);
  return {
    issuer: options.issuer,
    audience: options.audience,
    async issue(partner, grant) {
      const issuedAt = Math.floor(now() / 1000);
      const signing = options.keys.signing();
      const claims = { client_id: partner.login, sid: grant.familyId, gen: partner.tokenGeneration, ...cnfOf(grant), ...(grant.accessOnly ? { gty: CLIENT_CREDENTIALS_GTY } : {}), ...(grant.self ? { scope: SELF_SCOPE } : {}) };
      if (signing.keyObject) {
        // The same header and claims, in the same order, as SignJWT below writes them; signed by node:crypto (es256-jwt.ts).
        const payload = { ...claims, iss: options.issuer, aud: options.audience, sub: partner.id, iat: issuedAt, exp: issuedAt + options.ttlSeconds, jti: randomUUID() };
        return { accessToken: signEs256Parts(encodedHeaderOf(signing.kid), payload, signing.keyObject), expiresIn: options.ttlSeconds };
      }
      const accessToken = await new SignJWT(claims)
        .setProtectedHeader({ alg: SIGNING_ALG, typ: 'at+jwt', kid: signing.kid })
        .setIssuer(options.issuer)
        .setAudience(options.audience)
        .setSubject(partner.id)
        .setIssuedAt(issuedAt)
        .setExpirationTime(issuedAt + options.ttlSeconds)
        .setJti(randomUUID())
        .sign(signing.key);
      return { accessToken, expiresIn: options.ttlSeconds };
    },
    async verify(token) {
      if (token.length > MAX_TOKEN_LENGTH) throw errors.unauthorized('invalid_token', invalidTokenHeader);
      const known = verified.get(tailKey(token));
      // A token verified before its signing key was revoked is not trusted any longer.
      if (known !== undefined && known.token === token && options.keys.holds(known.claims.kid, 'sig')) return known.claims;
      try {
        const { payload, protectedHeader: header } = await jwtVerify(token, async (header: JWTHeaderParameters) => {
          const key = header.kid === undefined ? undefined : await options.keys.verificationKey(header.kid);
          if (!key) throw new Error('unknown kid');
          return key;
        }, {
          algorithms: [SIGNING_ALG],
          issuer: options.issuer,
          audience: options.audience,
          typ: 'at+jwt',
          requiredClaims: ['sub', 'jti', 'iat', 'exp', 'sid', 'gen'],
          currentDate: new Date(now()),
        });
        if (typeof payload.client_id !== 'string' || typeof payload.sid !== 'string' || !Number.isInteger(payload.gen)) {
          throw new Error('malformed claims');
        }
        const claims = {
          kid: header.kid!,
          partnerId: payload.sub!,
          login: payload.client_id,
          jti: payload.jti!,
          expiresAt: payload.exp!,
          familyId: payload.sid,
          generation: payload.gen as number,
          issuedAt: payload.iat!,
          accessOnly: payload.gty === CLIENT_CREDENTIALS_GTY,
          self: typeof payload.scope === 'string' && payload.scope.split(' ').includes(SELF_SCOPE),
          ...(jktOf(payload.cnf) ? { jkt: jktOf(payload.cnf)! } : {}),
          ...(x5tOf(payload.cnf) ? { x5t: x5tOf(payload.cnf)! } : {}),
        };
        if (options.verifiedCacheSize !== 0) verified.set(tailKey(token), { token, claims }, claims.expiresAt * 1000 - now());
        return claims;
      } catch {
        throw errors.unauthorized('invalid_token', invalidTokenHeader);
      }
    },
  };
}

/** The encoded protected header of the tokens a key signs, by kid: a constant per key, serialized once. */
const encodedHeaders = new Map<string, string>();
function encodedHeaderOf(kid: string): string {
  let encoded = encodedHeaders.get(kid);
  if (encoded === undefined) {
    // Keys rotate rarely; a bound keeps a long-lived process from collecting every kid it ever signed with.
    if (encodedHeaders.size >= 16) encodedHeaders.clear();
    encoded = Buffer.from(JSON.stringify({ alg: SIGNING_ALG, typ: 'at+jwt', kid })).toString('base64url');
    encodedHeaders.set(kid, encoded);
  }
  return encoded;
}

/** The `cnf.jkt` of a token's claims, when it is a string. */
function jktOf(cnf: unknown): string | undefined {
  const jkt = typeof cnf === 'object' && cnf !== null ? (cnf as { jkt?: unknown }).jkt : undefined;
  return typeof jkt === 'string' && jkt.length > 0 ? jkt : undefined;
}

/** The `cnf` claim of a bound token (absent for a bearer token). */
function cnfOf(grant: TokenGrant): { cnf?: Record<string, string> } {
  const cnf = { ...(grant.jkt ? { jkt: grant.jkt } : {}), ...(grant.x5t ? { 'x5t#S256': grant.x5t } : {}) };
  return Object.keys(cnf).length > 0 ? { cnf } : {};
}

/** The `cnf["x5t#S256"]` of a token's claims, when it is a string. */
function x5tOf(cnf: unknown): string | undefined {
  const x5t = typeof cnf === 'object' && cnf !== null ? (cnf as Record<string, unknown>)['x5t#S256'] : undefined;
  return typeof x5t === 'string' && x5t.length > 0 ? x5t : undefined;
}
