import { PartnerCertificatesView, SetPartnerCertificatesBody } from '@partner-gateway/contract/admin-partner-certificates';
import { ADMIN_PARTNER_CERTIFICATES_PATH } from '@partner-gateway/contract/paths';
import { partnerSubresourceRoutes } from './partner-subresource-routes.js';

/**
 * A partner's client certificates (self_signed_tls_client_auth) and subject DN (tls_client_auth): register them,
 * and remove them. Audited with their public identity before and after (thumbprints, names, validity).
 */
export const adminPartnerCertificatesRoutes = partnerSubresourceRoutes({
  path: ADMIN_PARTNER_CERTIFICATES_PATH,
  body: SetPartnerCertificatesBody,
  view: PartnerCertificatesView,
  set: {
    operationId: 'setPartnerCertificates',
    summary: "Register a partner's client certificates, or the subject DN of the certificates a configured CA issues it (mutual TLS, RFC 8705)",
    description:
      '`certificates` (PEM, at most 20) replaces the registered certificates, matched by SHA-256 thumbprint (self_signed_tls_client_auth); ' +
      '`subjectDn` replaces the subject a TLS_CLIENT_CA_FILE-issued certificate must carry, compared as an RFC 4514 name (tls_client_auth). ' +
      'Each leaves the other as it was. 422 for an expired certificate, anything not one PEM certificate, or a private key (never stored). ' +
      "Dropping a certificate or changing the subject ends the partner's sessions.",
    audit: 'partner.certificates.set',
    permission: 'partners.credentials',
    checked: 'partner.certificates.set',
  },
  remove: {
    operationId: 'deletePartnerCertificates',
    summary: "Remove a partner's client certificates and subject DN (mutual TLS then fails for it; its sessions end)",
    description: 'Answers 204 whether or not the partner had any (sessions end only when it had certificates); 404 for an unknown partner.',
    audit: 'partner.certificates.delete',
    permission: 'partners.credentials',
  },
  service: (admin) => admin.partnerCertificates,
});
