import type { PartnerCertificatesView } from '@partner-gateway/contract/admin-partner-certificates';
import type { RegisteredCertificate } from './partner-certificates.js';

/**
 * A partner's certificates and subject DN as the admin API shows them (thumbprint, names, validity; never the
 * PEM, which the partner holds anyway and an operator has no use for in a view), or null when it has neither.
 */
export function toPartnerCertificatesView(partner: { certificates: readonly RegisteredCertificate[] | null; subjectDn: string | null }): PartnerCertificatesView | null {
  if (partner.certificates === null && partner.subjectDn === null) return null;
  return {
    certificates: (partner.certificates ?? []).map((certificate) => ({
      thumbprint: certificate.thumbprint,
      subject: certificate.subjectDn,
      issuer: certificate.issuerDn,
      notBefore: certificate.notBefore,
      notAfter: certificate.notAfter,
    })),
    subjectDn: partner.subjectDn,
  };
}
