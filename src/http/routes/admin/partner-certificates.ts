import { PARTNER_ENDPOINTS } from '@partner-gateway/contract/admin-partner-endpoints';
import { partnerSubresourceRoutes } from './partner-subresource-routes.js';

/**
 * A partner's client certificates (self_signed_tls_client_auth) and subject DN (tls_client_auth): register them,
 * and remove them. Audited with their public identity before and after (thumbprints, names, validity).
 */
export const adminPartnerCertificatesRoutes = partnerSubresourceRoutes({
  set: PARTNER_ENDPOINTS.setCertificates,
  remove: PARTNER_ENDPOINTS.deleteCertificates,
  service: (admin) => admin.partnerCertificates,
});
