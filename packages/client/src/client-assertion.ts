import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import type { SigningKey } from './signing-key.js';

/**
 * How long a client assertion lives: the gateway accepts at most 5 minutes, and a short life keeps the
 * window in which its `jti` must be remembered small.
 *
 * @example
 * ```ts
 * const exp = iat + CLIENT_ASSERTION_LIFETIME_SECONDS; // 60 s
 * ```
 */
export const CLIENT_ASSERTION_LIFETIME_SECONDS = 60;

/**
 * A private_key_jwt client assertion (RFC 7523 section 3): `iss` = `sub` = the partner's login, `aud` = the
 * gateway's issuer identifier as a single string (FAPI 2.0, RFC 7523bis), a fresh `jti` for every request, `iat`
 * now and `exp` 60 s later by `nowMs`. Its header names the key with `kid`, so that the gateway finds the key
 * among the partner's, and types it `client-authentication+jwt` (RFC 7523bis's explicit type), so that it cannot
 * pass for any other kind of JWT.
 *
 * @example
 * ```ts
 * const assertion = await clientAssertion({ login: 'acme', audience: 'https://partners.example', key, kid: 'acme-2026', nowMs: Date.now() });
 * ```
 */
export async function clientAssertion(options: { login: string; audience: string; key: SigningKey; kid: string; nowMs: number }): Promise<string> {
  const iat = Math.floor(options.nowMs / 1000);
  return new SignJWT({})
    .setProtectedHeader({ alg: options.key.alg, kid: options.kid, typ: 'client-authentication+jwt' })
    .setIssuer(options.login)
    .setSubject(options.login)
    .setAudience(options.audience)
    .setJti(randomUUID())
    .setIssuedAt(iat)
    .setExpirationTime(iat + CLIENT_ASSERTION_LIFETIME_SECONDS)
    .sign(options.key.key);
}
