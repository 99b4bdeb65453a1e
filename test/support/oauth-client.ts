import { createHash, randomUUID } from 'node:crypto';
import { SignJWT, exportJWK, generateKeyPair, type CryptoKey, type JWK } from 'jose';
import type { Gateway } from '../../src/gateway.js';

/** A partner's key pair for tests: the private key signs, the public JWK is what gets registered. */
export interface TestKey {
  privateKey: CryptoKey;
  publicJwk: JWK;
  kid: string;
  alg: 'ES256' | 'EdDSA' | 'PS256';
}

export const CLIENT_ASSERTION_TYPE = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer' as const;

/** A fresh key pair (ES256 unless told). */
export async function testKey(alg: TestKey['alg'] = 'ES256', kid = `k-${randomUUID()}`): Promise<TestKey> {
  const { privateKey, publicKey } = await generateKeyPair(alg, alg === 'EdDSA' ? { crv: 'Ed25519' } : {});
  return { privateKey, publicJwk: { ...(await exportJWK(publicKey)), kid }, kid, alg };
}

/** Registers `keys` for `login` and sets its methods (through the admin operations, as an operator would). */
export async function registerKeys(gateway: Gateway, login: string, keys: TestKey[], policy: { authMethods?: Array<'password' | 'private_key_jwt'>; requireBound?: boolean } = {}): Promise<void> {
  await gateway.admin.partnerKeys.set(login, { keys: keys.map((key) => key.publicJwk as Record<string, unknown>) });
  await gateway.admin.partners.update(login, {
    authMethods: policy.authMethods ?? ['password', 'private_key_jwt'],
    ...(policy.requireBound !== undefined ? { requireSenderConstrainedTokens: policy.requireBound } : {}),
  });
}

/** A private_key_jwt assertion; every claim and header member can be overridden (undefined removes it). */
export async function clientAssertion(
  key: TestKey,
  login: string,
  aud: string | string[],
  options: { claims?: Record<string, unknown>; header?: Record<string, unknown>; now?: number } = {},
): Promise<string> {
  const now = Math.floor((options.now ?? Date.now()) / 1000);
  const claims = { iss: login, sub: login, aud, iat: now, exp: now + 60, jti: randomUUID(), ...options.claims };
  return new SignJWT(dropUndefined(claims)).setProtectedHeader(dropUndefined({ alg: key.alg, kid: key.kid, ...options.header }) as { alg: string }).sign(key.privateKey);
}

/** A DPoP proof (RFC 9449) for `method` `url`, with `ath` when a token is given; any claim can be overridden. */
export async function dpopProof(
  key: TestKey,
  method: string,
  url: string,
  options: { accessToken?: string; claims?: Record<string, unknown>; now?: number } = {},
): Promise<string> {
  const now = Math.floor((options.now ?? Date.now()) / 1000);
  const { kid: _kid, ...jwk } = key.publicJwk;
  const claims = {
    htm: method,
    htu: url,
    iat: now,
    jti: randomUUID(),
    ...(options.accessToken ? { ath: createHash('sha256').update(options.accessToken).digest('base64url') } : {}),
    ...options.claims,
  };
  return new SignJWT(dropUndefined(claims)).setProtectedHeader({ alg: key.alg, typ: 'dpop+jwt', jwk }).sign(key.privateKey);
}

/** An application/x-www-form-urlencoded body. */
export function form(fields: Record<string, string>): string {
  return new URLSearchParams(fields).toString();
}

export const FORM_HEADERS = { 'content-type': 'application/x-www-form-urlencoded' };

function dropUndefined<T extends Record<string, unknown>>(value: T): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([, member]) => member !== undefined));
}
