import { encryptPassword as encryptWithSdk } from '@partner-gateway/client';
import type { JWK } from 'jose';

export interface EncryptOptions {
  /** Header overrides (alg, enc, kid, iat, jti, zip, crit...); `undefined` removes a header. */
  header?: Record<string, unknown>;
  key?: JWK;
}

/**
 * Encrypts a password as a partner would, with the SDK's own builder: compact JWE, RSA-OAEP-256 + A256GCM, to
 * the first `enc` key of `jwks`, with `iat` = now and a fresh `jti`. Tests vary the header to forge every
 * refused shape.
 */
export async function encryptPassword(password: string, jwks: { keys: JWK[] }, options: EncryptOptions = {}): Promise<string> {
  const jwk = options.key ?? jwks.keys.find((key) => key.use === 'enc');
  if (!jwk) throw new Error('no encryption key in the JWKS');
  return encryptWithSdk(password, jwk, options.header ? { header: options.header } : {});
}
