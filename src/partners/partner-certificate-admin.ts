import type { SetPartnerCertificatesBody } from '@partner-gateway/contract/admin-partner-certificates';
import { errors } from '../errors.js';
import { validatePartnerCertificates, validateSubjectDn, type RegisteredCertificate } from './partner-certificates.js';
import type { PartnerChange } from './partner-admin.js';
import { toPartnerView } from './partner.js';
import type { PartnerChanges, PartnerRepository } from './partner-repository.js';

/** A partner's client certificates and subject DN, as the admin API changes them (issue 14). */
export interface PartnerCertificateAdmin {
  /**
   * Registers the partner's certificates (replacing the ones it had; its subject DN stays) or its subject DN
   * (replacing the one it had; its certificates stay). 422 naming each refused certificate (expired, not one
   * PEM certificate, a duplicate), a private key anywhere, or a subject that is not a distinguished name.
   * Dropping a certificate, or changing the subject, ends the partner's sessions. The partner before and after.
   */
  set(login: string, input: SetPartnerCertificatesBody): Promise<PartnerChange>;
  /** Forgets the certificates and the subject (mutual TLS then fails for the partner) and ends its sessions if it had any. */
  remove(login: string): Promise<PartnerChange>;
}

/**
 * @example
 * ```ts
 * const certificates = createPartnerCertificateAdmin(partners);
 * const { after } = await certificates.set('acme', { subjectDn: 'CN=acme-payouts,O=Acme,C=RU' });
 * after.certificates?.subjectDn; // 'CN=acme-payouts,O=Acme,C=RU'
 * ```
 */
export function createPartnerCertificateAdmin(partners: PartnerRepository, now: () => number = Date.now): PartnerCertificateAdmin {
  async function change(login: string, changesOf: (before: { certificates: RegisteredCertificate[] | null; subjectDn: string | null }) => PartnerChanges): Promise<PartnerChange> {
    const before = await partners.findByLogin(login);
    if (!before) throw errors.partnerNotFound(login);
    const changes = changesOf(before);
    // A certificate taken away, or another subject, is one the operator no longer trusts (compromised, or retired):
    // tokens bound to it or obtained with it must not outlive it. Adding certificates ends nothing.
    const kept = new Set((changes.certificates === undefined ? before.certificates : changes.certificates)?.map((certificate) => certificate.thumbprint));
    const dropsCertificate = (before.certificates ?? []).some((certificate) => !kept.has(certificate.thumbprint));
    const subjectChanged = changes.subjectDn !== undefined && before.subjectDn !== null && changes.subjectDn !== before.subjectDn;
    if (dropsCertificate || subjectChanged) changes.revokeTokens = true;
    const updated = await partners.update(login, changes);
    if (!updated) throw errors.partnerNotFound(login);
    return { before: toPartnerView(before), after: toPartnerView(updated), sessionsEnded: changes.revokeTokens === true };
  }
  return {
    set: (login, input) =>
      change(login, () =>
        'certificates' in input
          ? { certificates: validatePartnerCertificates(input.certificates, new Date(now())) }
          : { subjectDn: validateSubjectDn(input.subjectDn) },
      ),
    remove: (login) => change(login, () => ({ certificates: null, subjectDn: null })),
  };
}
