import type { PartnerCertificatesView, SetPartnerCertificatesBody } from '@partner-gateway/contract/admin-partner-certificates';
import { liveCertificates, validatePartnerCertificates, validateSubjectDn, type RegisteredCertificate } from './partner-certificates.js';
import { toPartnerCertificatesView } from './partner-certificates-view.js';
import type { PartnerRepository } from './partner-repository.js';
import { createPartnerSubresourceAdmin, type PartnerSubresourceAdmin } from './partner-subresource-admin.js';

/**
 * A partner's client certificates and subject DN (mutual TLS, RFC 8705), as the admin API changes them: `set`
 * registers its certificates (replacing the ones it had; its subject DN stays) or its subject DN (replacing the
 * one it had; its certificates stay), 422 naming each refused certificate (expired, not one PEM certificate, a
 * duplicate), a private key anywhere, or a subject that is not a distinguished name; `remove` forgets both
 * (mutual TLS then fails for the partner). Dropping a certificate, or changing the subject, ends its sessions.
 */
export type PartnerCertificateAdmin = PartnerSubresourceAdmin<SetPartnerCertificatesBody, PartnerCertificatesView>;

/**
 * A certificate the operator lists again keeps the end a partner's rotation gave it: re-sending the list to add one
 * certificate must not make a retiring one permanent. To end one sooner, leave it out; one whose end has passed
 * is registered anew, without an end.
 */
function keepRetirements(certificates: RegisteredCertificate[], before: readonly RegisteredCertificate[], at: number): RegisteredCertificate[] {
  const ends = new Map(liveCertificates(before, at).flatMap((certificate) => (certificate.retiresAt === undefined ? [] : [[certificate.thumbprint, certificate.retiresAt] as const])));
  return certificates.map((certificate) => {
    const retiresAt = ends.get(certificate.thumbprint);
    return retiresAt === undefined ? certificate : { ...certificate, retiresAt };
  });
}

/**
 * @example
 * ```ts
 * const certificates = createPartnerCertificateAdmin(partners);
 * const { after } = await certificates.set('acme', { subjectDn: 'CN=acme-payouts,O=Acme,C=RU' });
 * after?.subjectDn; // 'CN=acme-payouts,O=Acme,C=RU'
 * ```
 */
export function createPartnerCertificateAdmin(partners: PartnerRepository, now: () => number = Date.now): PartnerCertificateAdmin {
  return createPartnerSubresourceAdmin(partners, {
    changesOf: (body, before) =>
      'certificates' in body
        ? { certificates: keepRetirements(validatePartnerCertificates(body.certificates, new Date(now())), before.certificates ?? [], now()) }
        : { subjectDn: validateSubjectDn(body.subjectDn) },
    removal: { certificates: null, subjectDn: null },
    // A certificate taken away, or another subject, is one the operator no longer trusts (compromised, or retired):
    // tokens bound to it or obtained with it must not outlive it. Adding certificates ends nothing.
    endsSessions: (before, changes) => {
      const kept = new Set((changes.certificates === undefined ? before.certificates : changes.certificates)?.map((certificate) => certificate.thumbprint));
      const dropsCertificate = (before.certificates ?? []).some((certificate) => !kept.has(certificate.thumbprint));
      const subjectChanged = changes.subjectDn !== undefined && before.subjectDn !== null && changes.subjectDn !== before.subjectDn;
      return dropsCertificate || subjectChanged;
    },
    view: toPartnerCertificatesView,
  });
}
