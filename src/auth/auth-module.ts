import type { X509Certificate } from 'node:crypto';
import type { Kysely } from 'kysely';
import { tokenIssuer, type Config } from '../config.js';
import type { ChangeFeed } from '../db/change-feed.js';
import type { Database } from '../db/schema.js';
import type { KeyStore } from '../keys/key-store.js';
import type { PartnersModule } from '../partners/partners-module.js';
import type { SharedStores } from '../stores/shared-stores.js';
import type { AuthDependencies } from './auth-dependencies.js';
import { createDpopNonces } from './binding/dpop-nonces.js';
import { createBruteForceGuard } from './brute-force-guard.js';
import { decryptPartnerPassword } from './credentials/decrypt-partner-password.js';
import { createAccessTokens } from './tokens/access-tokens.js';
import { createCachedTokenFamilyRepository, type CachedTokenFamilyRepository } from './tokens/cached-token-family-repository.js';
import { createTokenFamilyRepository } from './tokens/token-family-repository.js';

export interface AuthModuleOptions {
  config: Config;
  db: Kysely<Database>;
  feed: ChangeFeed;
  partners: PartnersModule;
  keys: KeyStore;
  stores: SharedStores;
  /** The token endpoint's public URL: a client assertion's `aud` may name it when CLIENT_ASSERTION_AUDIENCES says so. */
  tokenEndpoint: string;
  /** TLS_CLIENT_CA_FILE's CAs as last (re)loaded; absent, tls_client_auth always fails. */
  trustedCas?: (() => readonly X509Certificate[]) | undefined;
  /** MASTER_KEY: the DPoP nonces' key is derived from it, so that every instance hands out and accepts the same. */
  masterKey: Buffer;
  now: () => number;
}

/** What the operations authenticate with, and the token families they keep (cached; the gateway purges and measures them). */
export type AuthModule = AuthDependencies & { families: CachedTokenFamilyRepository };

/**
 * Wires the auth module: access tokens signed with the key store's signing key, token families (cached, a
 * revocation told to every instance through the change feed), the brute-force guard over the shared throttle
 * store, encrypted-password decryption and DPoP proofs within the JWE window (JWE_MAX_AGE, JWE_MAX_FUTURE), jtis
 * spent in the shared replay store.
 *
 * @example
 * ```ts
 * const auth = createAuth({ config, db, feed, partners, keys: keys.store, stores, tokenEndpoint, masterKey, now });
 * const claims = await auth.tokens.verify(token);
 * ```
 */
export function createAuth(options: AuthModuleOptions): AuthModule {
  const { config, feed, now } = options;
  const families = createCachedTokenFamilyRepository(createTokenFamilyRepository(options.db), config.CACHE_TTL_MS, now, (id) => feed.publish({ kind: 'family', id }));
  feed.subscribe('family', (change) => families.invalidate(change.id));
  const window = { maxAgeSeconds: config.JWE_MAX_AGE, maxFutureSeconds: config.JWE_MAX_FUTURE, now };
  return {
    partners: options.partners.repository,
    passwords: options.partners.passwords,
    remoteJwks: options.partners.remoteJwks,
    guard: createBruteForceGuard(options.stores.throttle, now, config.CACHE_TTL_MS),
    tokens: createAccessTokens({ keys: options.keys, issuer: tokenIssuer(config), audience: config.TOKEN_AUDIENCE, ttlSeconds: config.TOKEN_TTL, now }),
    families,
    replay: options.stores.jtis,
    decryptPassword: (jwe) => decryptPartnerPassword(jwe, { keys: options.keys, ...window }),
    // DPoP proofs: the JWE window's bounds, their jtis spent in the JWEs' replay store (shared by every instance),
    // and with DPOP_NONCE=required the nonces every instance derives alike from MASTER_KEY.
    dpop: { replay: options.stores.jtis, ...window, nonces: config.DPOP_NONCE === 'required' ? createDpopNonces(options.masterKey, config.DPOP_NONCE_ROTATION, now) : undefined },
    assertionAudiences: {
      issuer: tokenIssuer(config),
      ...(config.CLIENT_ASSERTION_AUDIENCES === 'issuer,token_endpoint' ? { tokenEndpoint: options.tokenEndpoint } : {}),
    },
    trustedCas: options.trustedCas,
    refreshTtlSeconds: config.REFRESH_TTL,
    now,
  };
}
