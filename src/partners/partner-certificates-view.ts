import type { PartnerCertificatesView, PartnerCertificateView } from '@partner-gateway/contract/admin-partner-certificates';
import type { RegisteredCertificate } from './partner-certificates.js';

/** One registered certificate as the admin and self-service APIs show it: thumbprint, names, validity, a rotation's end. */
export function toPartnerCertificateView(certificate: RegisteredCertificate): PartnerCertificateView {
  return {
    thumbprint: certificate.thumbprint,
    subject: certificate.subjectDn,
    issuer: certificate.issuerDn,
    notBefore: certificate.notBefore,
    notAfter: certificate.notAfter,
    ...(certificate.retiresAt !== undefined ? { retiresAt: certificate.retiresAt } : {}),
  };
}

/**
 * A partner's certificates and subject DN as the admin API shows them (thumbprint, names, validity; never the
 * PEM, which the partner holds anyway and an operator has no use for in a view), or null when it has neither.
 */
export function toPartnerCertificatesView(partner: { certificates: readonly RegisteredCertificate[] | null; subjectDn: string | null }): PartnerCertificatesView | null {
  if (partner.certificates === null && partner.subjectDn === null) return null;
  return { certificates: (partner.certificates ?? []).map(toPartnerCertificateView), subjectDn: partner.subjectDn };
}
