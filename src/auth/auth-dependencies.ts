import type { X509Certificate } from 'node:crypto';
import type { Partner } from '../partners/partner.js';
import type { PartnerRepository } from '../partners/partner-repository.js';
import type { PasswordVerifier } from '../partners/password-verifier.js';
import type { RemoteJwks } from '../partners/remote-jwks.js';
import type { SingleUseJtis } from '../stores/replay/single-use-jtis.js';
import type { BruteForceGuard } from './brute-force-guard.js';
import type { DpopNonces } from './binding/dpop-nonces.js';
import type { ClientAuthMethodName } from '../request-context.js';
import type { AssertionAudiences } from './credentials/verify-client-assertion.js';
import type { AccessTokens } from './tokens/access-tokens.js';
import type { TokenFamilyRepository } from './tokens/token-family-repository.js';

/**
 * What the auth module's credentials, bindings and steps are built from: one shape, wired once by the gateway
 * (`createAuth`), of which each step names the part it uses (`Pick<AuthDependencies, 'partners' | 'guard'>`).
 * Shared types live here and nowhere else, so that no step imports another's file for a type; this file imports
 * nothing from the steps.
 */
export interface AuthDependencies {
  partners: PartnerRepository;
  passwords: PasswordVerifier;
  guard: BruteForceGuard;
  tokens: AccessTokens;
  families: TokenFamilyRepository;
  /** Spent jtis (encrypted passwords, client assertions, DPoP proofs), shared by every instance. */
  replay: SingleUseJtis;
  /** Decrypts a partnerPassword JWE (header checks first), without spending its jti. */
  decryptPassword(jwe: string): Promise<DecryptedPassword>;
  /** DPoP proofs' window and replay store. */
  dpop: DpopProofSettings;
  /** Partners' published key sets (jwksUri), fetched and cached per instance. */
  remoteJwks: Pick<RemoteJwks, 'keys' | 'fetchedAt'>;
  /** What a client assertion's `aud` may be (CLIENT_ASSERTION_AUDIENCES). */
  assertionAudiences: AssertionAudiences;
  /**
   * TLS_CLIENT_CA_FILE's CAs as last (re)loaded: asked on every tls_client_auth check, so that a SIGHUP counts
   * from the next request. Absent, no CA is trusted (tls_client_auth always fails).
   */
  trustedCas?: (() => readonly X509Certificate[]) | undefined;
  /** REFRESH_TTL in seconds. */
  refreshTtlSeconds: number;
  now: () => number;
}

/** A decrypted partnerPassword JWE. */
export interface DecryptedPassword {
  password: string;
  jti: string;
  /** Until when the jti must be remembered: as long as its `iat` is inside the window. */
  rememberUntil: Date;
  /** Its `iat` (seconds): refused when the replay state was lost after it (SingleUseJtis). */
  issuedAt: number;
}

/** How DPoP proofs are checked and spent. */
export interface DpopProofSettings {
  /** The replay store the encrypted passwords use, shared by every instance. */
  replay: SingleUseJtis;
  /** The JWE window's bounds (JWE_MAX_AGE, JWE_MAX_FUTURE), in seconds. */
  maxAgeSeconds: number;
  maxFutureSeconds: number;
  /** With DPOP_NONCE=required, the gateway's nonces every proof must carry one of (RFC 9449 section 8); else absent. */
  nonces?: DpopNonces | undefined;
  now: () => number;
}

/** An OAuth client whose credential is proven: the partner, how it proved itself, and what to bind its tokens to. */
export interface AuthenticatedClient {
  partner: Partner;
  method: ClientAuthMethodName;
  /**
   * The thumbprint of the TLS client certificate it authenticated with (RFC 8705 section 3: a token issued now is
   * bound to it); absent for every other method: the gateway binds only what it authenticated.
   */
  certificateThumbprint?: string;
}
