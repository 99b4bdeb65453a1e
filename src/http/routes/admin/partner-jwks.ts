import { PartnerJwksView, SetPartnerJwksBody } from '@partner-gateway/contract/admin-partner-keys';
import { ADMIN_PARTNER_JWKS_PATH } from '@partner-gateway/contract/paths';
import { partnerSubresourceRoutes } from './partner-subresource-routes.js';

/**
 * A partner's public keys for private_key_jwt: register them (or the URL where the partner publishes them),
 * and remove them. Audited with the keys' public identity before and after (kid, type, alg, thumbprint).
 */
export const adminPartnerJwksRoutes = partnerSubresourceRoutes({
  path: ADMIN_PARTNER_JWKS_PATH,
  body: SetPartnerJwksBody,
  view: PartnerJwksView,
  set: {
    operationId: 'setPartnerJwks',
    summary: "Register a partner's public keys, or the https URL of its JWK Set (replaces what it had; dropping a key ends the partner's sessions)",
    description:
      'Keys: EC P-256, Ed25519, or RSA of at least 2048 bits, public members only, each kid once; 422 names every refused key. ' +
      'A jwksUri must be https (plain http only to a loopback address outside production) and is fetched once at once: a URL that serves no valid set is refused.',
    audit: 'partner.jwks.set',
    permission: 'partners.credentials',
    checked: 'partner.jwks.set',
  },
  remove: {
    operationId: 'deletePartnerJwks',
    summary: "Remove a partner's public keys (private_key_jwt then fails for it until new ones are registered; its sessions end)",
    description: 'Answers 204 whether or not the partner had keys (sessions end only when it had some); 404 for an unknown partner.',
    audit: 'partner.jwks.delete',
    permission: 'partners.credentials',
  },
  service: (admin) => admin.partnerKeys,
});
