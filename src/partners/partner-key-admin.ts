import type { PartnerJwksView, SetPartnerJwksBody } from '@partner-gateway/contract/admin-partner-keys';
import { errors } from '../errors.js';
import { toPartnerJwksView } from './partner.js';
import { validatePartnerJwks, type PartnerKey } from './partner-keys.js';
import type { PartnerChanges, PartnerRepository } from './partner-repository.js';
import { createPartnerSubresourceAdmin, type PartnerSubresourceAdmin } from './partner-subresource-admin.js';
import { checkJwksUri, type RemoteJwks } from './remote-jwks.js';

/**
 * A partner's public keys for private_key_jwt, as the admin API changes them: `set` registers the keys, or the
 * https URL where the partner publishes them (replacing whatever it had; 422 naming every refused key), `remove`
 * forgets them (private_key_jwt then fails for it until new ones are registered). A key it had that the new set
 * lacks ends its sessions.
 */
export type PartnerKeyAdmin = PartnerSubresourceAdmin<SetPartnerJwksBody, PartnerJwksView>;

export interface PartnerKeyAdminOptions {
  /** Production refuses a plain-http jwksUri even to a loopback address. */
  production: boolean;
  /** Fetches a jwksUri at registration, so that a wrong URL is refused at once and the view shows the keys. */
  remoteJwks?: Pick<RemoteJwks, 'keys' | 'forget'>;
  now?: () => number;
}

/**
 * @example
 * ```ts
 * const keys = createPartnerKeyAdmin(partners, { production: true, remoteJwks });
 * const { after } = await keys.set('acme', { jwksUri: 'https://acme.example/.well-known/jwks.json' });
 * after?.keys.map((key) => key.kid); // the kids the URL served
 * ```
 */
export function createPartnerKeyAdmin(partners: PartnerRepository, options: PartnerKeyAdminOptions = { production: true }): PartnerKeyAdmin {
  /** A jwksUri is fetched once at registration: a URL that serves no valid JWK Set is refused (422). */
  async function fetchedJwks(uri: string): Promise<PartnerChanges> {
    if (!options.remoteJwks) return { jwks: null, jwksUri: uri, jwksFetchedAt: null };
    options.remoteJwks.forget(uri);
    const keys = await options.remoteJwks.keys(uri);
    if (keys.length === 0) {
      throw errors.validationFailed([{ field: 'jwksUri', message: 'did not serve a valid JWK Set of public signing keys (fetched once, 5 s, 64 KiB)' }]);
    }
    return { jwks: keys, jwksUri: uri, jwksFetchedAt: new Date((options.now ?? Date.now)()) };
  }

  return createPartnerSubresourceAdmin(partners, {
    changesOf: async (body) =>
      body.jwksUri === undefined
        ? { jwks: await validatePartnerJwks(body.keys), jwksUri: null, jwksFetchedAt: null }
        : fetchedJwks(checkJwksUri(body.jwksUri, options.production).href),
    removal: { jwks: null, jwksUri: null, jwksFetchedAt: null },
    // A key taken out of the set is one the operator no longer trusts (compromised, or retired): the tokens
    // obtained with it must not outlive it. Adding keys, or registering the same ones again, ends nothing.
    endsSessions: (before, changes) => dropsKey(before.jwks, changes.jwks ?? null),
    view: toPartnerJwksView,
  });
}

/** True when `after` lacks a key (by RFC 7638 thumbprint) that `before` held. */
function dropsKey(before: readonly PartnerKey[] | null, after: readonly PartnerKey[] | null): boolean {
  const kept = new Set((after ?? []).map((key) => key.thumbprint));
  return (before ?? []).some((key) => !kept.has(key.thumbprint));
}
