import { createHash } from 'node:crypto';
import { AppError, errors } from '../../errors.js';
import type { Partner } from '../../partners/partner.js';
import type { PartnerRepository } from '../../partners/partner-repository.js';
import { liveKeys, type PartnerKey } from '../../partners/partner-keys.js';
import type { RemoteJwks } from '../../partners/remote-jwks.js';
import type { AuthDependencies, AuthenticatedClient } from '../auth-dependencies.js';
import { requireAuthMethod } from './require-auth-method.js';
import { verifyClientAssertion } from './verify-client-assertion.js';

/** RFC 7523 leaves an assertion's lifetime to the server: five minutes. */
export const MAX_ASSERTION_LIFETIME_SECONDS = 300;
/** Clock difference tolerated on an assertion's `iat` and `exp`. */
export const ASSERTION_CLOCK_TOLERANCE_SECONDS = 30;

/**
 * `private_key_jwt` (RFC 7523): the assertion verified against the partner's keys (verifyClientAssertion, the
 * keys from partnerKeySource), then its jti spent once for every instance, under a key of the partner's own (two
 * partners may pick the same jti). Failures are counted as cheap failures of the address (no argon2, never
 * locking a password); whether the partner may use the method is decided only once the assertion is verified.
 * Every refusal is `invalid_client` (401), 429 when the address is locked; a key looked for in vain because the
 * partner's jwksUri does not answer is `jwks_unavailable` in the audit trail, with the same answer.
 *
 * @example
 * ```ts
 * const client = await authenticateWithAssertion(form.client_assertion, form.client_id, context.clientAddress, deps);
 * ```
 */
export async function authenticateWithAssertion(
  assertion: string,
  clientId: string | undefined,
  clientAddress: string,
  deps: Pick<AuthDependencies, 'partners' | 'guard' | 'replay' | 'remoteJwks' | 'assertionAudiences' | 'now'>,
): Promise<AuthenticatedClient> {
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
    const spent = await deps.replay.spend(assertionReplayKey(verified.login, verified.jti), verified);
    if (spent !== 'spent') throw errors.invalidClient(spent === 'replayed' ? 'client_assertion_replayed' : 'replay_state_lost');
  } catch (error) {
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
  return { partner, method: 'private_key_jwt' };
}

/** The replay-store key of an assertion's jti: its own prefix, hashed with the login to a fixed, storable length. */
export function assertionReplayKey(login: string, jti: string): string {
  return `pkjwt:${createHash('sha256').update(`${login}\n${jti}`).digest('base64url')}`;
}

/** How long a stored copy of a published set may stand in when its jwksUri cannot be fetched (as RemoteJwks keeps its own). */
const STORED_SET_MAX_AGE_MS = 24 * 3600_000;

/**
 * The keys a client assertion may be verified with: the partner's registered keys, or, for a partner that
 * publishes its keys at a `jwksUri`, the set fetched from there (RemoteJwks: cached, refetched for an unknown
 * kid at most once a minute). A successful fetch is recorded on the partner (`jwks`, `jwksFetchedAt`) for the
 * admin view and as the copy other instances fall back on while the URL does not answer (for 24 hours).
 * `onPartner` learns the partner the assertion names, looked up once, and whether its published keys were
 * unavailable (the jwksUri not answering and no stored copy young enough).
 */
export function partnerKeySource(
  partners: Pick<PartnerRepository, 'findByLogin' | 'update'>,
  remoteJwks: Pick<RemoteJwks, 'keys' | 'fetchedAt'>,
  now: () => number,
  onPartner: (partner: Partner | undefined, keysUnavailable?: boolean) => void,
): (login: string, kid: string | undefined) => Promise<PartnerKey[]> {
  return async (login, kid) => {
    const partner = login.includes('\0') ? undefined : await partners.findByLogin(login);
    onPartner(partner);
    if (!partner) return [];
    // A registered key past the end of its rotation's overlap window is one the partner has retired.
    if (!partner.jwksUri) return liveKeys(partner.jwks, now());
    const keys = await remoteJwks.keys(partner.jwksUri, kid);
    const fetchedAt = remoteJwks.fetchedAt(partner.jwksUri);
    if (keys.length > 0 && fetchedAt && (!partner.jwksFetchedAt || fetchedAt.getTime() > partner.jwksFetchedAt.getTime())) {
      // Best effort: failing to record a fetch must not refuse a valid assertion.
      await partners.update(partner.login, { jwks: keys, jwksFetchedAt: fetchedAt }).catch(() => undefined);
    }
    if (keys.length > 0) return keys;
    if (partner.jwks && partner.jwksFetchedAt && now() - partner.jwksFetchedAt.getTime() < STORED_SET_MAX_AGE_MS) return partner.jwks;
    onPartner(partner, true);
    return [];
  };
}
