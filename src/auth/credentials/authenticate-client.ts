import { createHash } from 'node:crypto';
import { AppError, errors } from '../../errors.js';
import type { Partner } from '../../partners/partner.js';
import type { PartnerRepository } from '../../partners/partner-repository.js';
import type { PasswordVerifier } from '../../partners/password-verifier.js';
import type { JtiReplayRepository } from '../../stores/replay/jti-replay-repository.js';
import type { BruteForceGuard } from '../steps/brute-force-guard.js';
import { authenticateWithPassword } from './authenticate-with-password.js';
import { requireAuthMethod } from '../steps/require-auth-method.js';
import { partnerKeySource } from './partner-key-source.js';
import { BASIC_CHALLENGE, type ClientAuthMethodName, type ClientCredentials } from './read-client-credentials.js';
import type { RemoteJwks } from '../../partners/remote-jwks.js';
import { verifyClientAssertion } from './verify-client-assertion.js';
import type { CertificateAuthenticationDependencies } from './authenticate-with-certificate.js';

export interface ClientAuthenticationDependencies extends CertificateAuthenticationDependencies {
  partners: PartnerRepository;
  guard: BruteForceGuard;
  passwords: PasswordVerifier;
  replay: Pick<JtiReplayRepository, 'claim'>;
  remoteJwks: Pick<RemoteJwks, 'keys' | 'fetchedAt'>;
  /** What an assertion's `aud` may name: the issuer identifier and the token endpoint's public URL. */
  assertionAudiences: string[];
  now: () => number;
}

export interface AuthenticatedClient {
  partner: Partner;
  method: ClientAuthMethodName;
}

/** RFC 7523 leaves an assertion's lifetime to the server: five minutes, as the issue sets it. */
export const MAX_ASSERTION_LIFETIME_SECONDS = 300;
/** Clock difference tolerated on an assertion's `iat` and `exp`. */
export const ASSERTION_CLOCK_TOLERANCE_SECONDS = 30;

/**
 * Authenticates an OAuth client (the token, introspection and revocation endpoints) by the one method it used
 * (readClientCredentials). The API password is checked exactly as login checks it (authenticateWithPassword:
 * the same argon2, the same brute-force counting); an assertion is verified (verifyClientAssertion) and its jti
 * spent once for every instance, its failures counted as cheap failures (no argon2, never locking a
 * password). Whether the partner may use the method is decided only once the credential was evaluated.
 * Every refusal is `invalid_client` (401; with `WWW-Authenticate: Basic` for Basic), 429 when locked.
 *
 * @example
 * ```ts
 * const { partner, method } = await authenticateClient(readClientCredentials(form, authorization), request.ip, deps);
 * ```
 */
export async function authenticateClient(credentials: ClientCredentials, clientAddress: string, deps: ClientAuthenticationDependencies): Promise<AuthenticatedClient> {
  if (credentials.method === 'private_key_jwt') return { partner: await authenticateWithAssertion(credentials.assertion, credentials.clientId, clientAddress, deps), method: credentials.method };
  const challenge = credentials.method === 'client_secret_basic' ? BASIC_CHALLENGE : undefined;
  try {
    return { partner: await authenticateWithPassword(credentials.login, credentials.secret, clientAddress, deps), method: credentials.method };
  } catch (error) {
    if (error instanceof AppError && error.code === 'unauthorized' && error.extra.reason) throw errors.invalidClient(error.extra.reason, challenge);
    throw error;
  }
}

async function authenticateWithAssertion(assertion: string, clientId: string | undefined, clientAddress: string, deps: ClientAuthenticationDependencies): Promise<Partner> {
  let partner: Partner | undefined;
  let unavailable = false;
  try {
    const verified = await verifyClientAssertion(assertion, {
      ...(clientId !== undefined ? { clientId } : {}),
      keysOf: partnerKeySource(deps.partners, deps.remoteJwks, deps.now, (found, keysUnavailable) => {
        partner = found;
        unavailable = keysUnavailable === true;
      }),
      audiences: deps.assertionAudiences,
      maxLifetimeSeconds: MAX_ASSERTION_LIFETIME_SECONDS,
      clockToleranceSeconds: ASSERTION_CLOCK_TOLERANCE_SECONDS,
      now: deps.now,
    });
    if (!partner || partner.login !== verified.login) throw errors.invalidClient('client_assertion_key_unknown');
    // The jti is remembered per partner: two partners may well pick the same one.
    if (!(await deps.replay.claim(assertionReplayKey(verified.login, verified.jti), verified.rememberUntil))) {
      throw errors.invalidClient('client_assertion_replayed');
    }
  } catch (error) {
    // A key looked for in vain because the partner's jwksUri does not answer is `jwks_unavailable` in the audit
    // trail (the partner's hosting, not its signature, is what to look at); the answer is the same.
    const refusal = unavailable && error instanceof AppError && error.extra.reason === 'client_assertion_key_unknown' ? errors.invalidClient('jwks_unavailable') : error;
    if (refusal instanceof AppError && refusal.status === 401) return deps.guard.failCheap(refusal, clientAddress);
    throw error;
  }
  try {
    requireAuthMethod(partner, 'private_key_jwt');
  } catch (error) {
    if (error instanceof AppError && error.extra.reason) throw errors.invalidClient(error.extra.reason);
    throw error;
  }
  return partner;
}

/** The replay-store key of an assertion's jti: its own prefix, hashed with the login to a fixed, storable length. */
export function assertionReplayKey(login: string, jti: string): string {
  return `pkjwt:${createHash('sha256').update(`${login}\n${jti}`).digest('base64url')}`;
}
