import { importJWK, type CryptoKey, type JWK } from 'jose';
import { encryptPassword, PASSWORD_KEY_ALG as KEY_ALG } from './encrypt-password.js';
import { PartnerApiError } from './partner-api-error.js';
import { singleFlight, waitFor } from './single-flight.js';

interface EncryptionKey {
  kid: string;
  key: CryptoKey | Uint8Array;
}

/**
 * Turns the API password into the single-use `partnerPassword` JWE of the banks operation: RSA-OAEP-256 +
 * A256GCM to the gateway's encryption key, with a fresh `iat` and `jti` in the protected header each time.
 * The key set is fetched once and kept; `reload` fetches it again when the gateway refused a JWE.
 *
 * @example
 * ```ts
 * const encryptor = new PasswordEncryptor(() => fetch(jwksUrl).then((r) => r.json()), Date.now);
 * const { jwe, kid } = await encryptor.encrypt(password);
 * ```
 */
export class PasswordEncryptor {
  #loaded: EncryptionKey | undefined;
  readonly #fetch = singleFlight(async () => {
    const key = await pickEncryptionKey(await this.loadJwks());
    this.#loaded = key;
    return key;
  });

  constructor(
    /** One fetch of the JWKS (the client retries around it). */
    private readonly loadJwks: () => Promise<unknown>,
    private readonly now: () => number,
  ) {}

  /** A new JWE of `password`, and the kid it was encrypted to. */
  async encrypt(password: string, signal?: AbortSignal): Promise<{ jwe: string; kid: string }> {
    const key = this.#loaded ?? (await waitFor(this.#fetch(), signal));
    return { jwe: await encryptPassword(password, key, { now: this.now }), kid: key.kid };
  }

  /**
   * Fetches the key set again after a JWE to `usedKid` was refused, and says whether the key to encrypt to
   * changed (a rotation, or a key the gateway no longer holds): only then is another try worth making.
   */
  async reload(usedKid: string, signal?: AbortSignal): Promise<boolean> {
    // A concurrent call may already have found the new key; its fetch is as good as ours.
    if (this.#loaded && this.#loaded.kid !== usedKid) return true;
    const { kid } = await waitFor(this.#fetch(), signal);
    return kid !== usedKid;
  }
}

/**
 * The newest RSA-OAEP-256 encryption key of a JWK Set. The gateway lists keys oldest first, so the last one
 * is the newest and stays usable longest while an old key is being retired.
 */
async function pickEncryptionKey(jwks: unknown): Promise<EncryptionKey> {
  const keys = (jwks as { keys?: unknown } | undefined)?.keys;
  const candidates = (Array.isArray(keys) ? (keys as JWK[]) : []).filter(
    (key) => key?.use === 'enc' && key.alg === KEY_ALG && key.kty === 'RSA' && typeof key.kid === 'string' && key.kid !== '',
  );
  const jwk = candidates.at(-1);
  if (!jwk) {
    throw new PartnerApiError({ kind: 'unavailable', status: 200, description: 'The key set has no RSA-OAEP-256 encryption key', operation: 'jwks' });
  }
  try {
    return { kid: jwk.kid!, key: await importJWK(jwk, KEY_ALG) };
  } catch {
    throw new PartnerApiError({ kind: 'unavailable', status: 200, description: `The encryption key ${jwk.kid} cannot be used`, operation: 'jwks' });
  }
}
