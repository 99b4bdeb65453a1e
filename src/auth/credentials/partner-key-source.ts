import type { Partner } from '../../partners/partner.js';
import type { PartnerRepository } from '../../partners/partner-repository.js';
import type { PartnerKey } from '../../partners/partner-keys.js';
import type { RemoteJwks } from '../../partners/remote-jwks.js';

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
    if (!partner.jwksUri) return partner.jwks ?? [];
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
