import { PARTNER_ENDPOINTS } from '@partner-gateway/contract/admin-partner-endpoints';
import { partnerSubresourceRoutes } from './partner-subresource-routes.js';

/**
 * A partner's public keys for private_key_jwt: register them (or the URL where the partner publishes them),
 * and remove them. Audited with the keys' public identity before and after (kid, type, alg, thumbprint).
 */
export const adminPartnerJwksRoutes = partnerSubresourceRoutes({ set: PARTNER_ENDPOINTS.setJwks, remove: PARTNER_ENDPOINTS.deleteJwks, service: (admin) => admin.partnerKeys });
