import { randomUUID } from 'node:crypto';
import { CompactEncrypt, importJWK, type JWK } from 'jose';

export interface EncryptOptions {
  /** Header overrides (alg, enc, kid, iat, jti, zip, crit...); `undefined` removes a header. */
  header?: Record<string, unknown>;
  key?: JWK;
}

/**
 * Encrypts a password as a partner would: compact JWE, RSA-OAEP-256 + A256GCM, to the first `enc` key of
 * `jwks`, with `iat` = now and a fresh `jti` in the protected header. Tests vary the header to forge
 * every refused shape.
 */
export async function encryptPassword(password: string, jwks: { keys: JWK[] }, options: EncryptOptions = {}): Promise<string> {
  const jwk = options.key ?? jwks.keys.find((key) => key.use === 'enc');
  if (!jwk) throw new Error('no encryption key in the JWKS');
  const header: Record<string, unknown> = {
    alg: 'RSA-OAEP-256',
    enc: 'A256GCM',
    kid: jwk.kid,
    iat: Math.floor(Date.now() / 1000),
    jti: randomUUID(),
    ...options.header,
  };
  for (const [name, value] of Object.entries(header)) if (value === undefined) delete header[name];
  const key = await importJWK(jwk, 'RSA-OAEP-256');
  return new CompactEncrypt(new TextEncoder().encode(password))
    .setProtectedHeader(header as never)
    .encrypt(key);
}
