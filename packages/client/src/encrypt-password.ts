import { randomUUID } from 'node:crypto';
import { CompactEncrypt, importJWK, type CryptoKey, type JWK } from 'jose';

/** The key management algorithm the gateway's encryption keys use. */
export const PASSWORD_KEY_ALG = 'RSA-OAEP-256';
/** The content encryption of partnerPassword JWEs. */
export const PASSWORD_CONTENT_ENC = 'A256GCM';

/** An encryption key to encrypt to: a JWK from the gateway's JWKS, or one already imported with its kid. */
export type PasswordKey = JWK | { kid: string; key: CryptoKey | Uint8Array };

export interface EncryptPasswordOptions {
  /** The clock for `iat`, in milliseconds since the epoch; `Date.now` by default. */
  now?: () => number;
  /**
   * Protected header parameters to add or replace; `undefined` removes one. For tools and tests that need a
   * JWE the gateway should refuse (a stale `iat`, a `zip`); partners never need it.
   */
  header?: Record<string, unknown>;
}

/**
 * The banks operation's `partnerPassword`: the API password as a compact JWE, RSA-OAEP-256 + A256GCM to the
 * gateway's encryption key, with the key's `kid`, `iat` (now, whole seconds) and a fresh `jti` in the
 * protected header. Each JWE is accepted once: build a new one for every call.
 *
 * @example
 * ```ts
 * const { keys } = await (await fetch('https://api.example/.well-known/jwks.json')).json();
 * const jwe = await encryptPassword(password, keys.filter((key) => key.use === 'enc').at(-1));
 * ```
 */
export async function encryptPassword(password: string, key: PasswordKey, options: EncryptPasswordOptions = {}): Promise<string> {
  const imported = 'key' in key && !('kty' in key) ? (key as { kid: string; key: CryptoKey | Uint8Array }) : undefined;
  const kid = imported ? imported.kid : (key as JWK).kid;
  const material = imported ? imported.key : await importJWK(key as JWK, PASSWORD_KEY_ALG);
  const header: Record<string, unknown> = {
    alg: PASSWORD_KEY_ALG,
    enc: PASSWORD_CONTENT_ENC,
    kid,
    iat: Math.floor((options.now ?? Date.now)() / 1000),
    jti: randomUUID(),
    ...options.header,
  };
  for (const [name, value] of Object.entries(header)) if (value === undefined) delete header[name];
  return new CompactEncrypt(new TextEncoder().encode(password)).setProtectedHeader(header as never).encrypt(material);
}
