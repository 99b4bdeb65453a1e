import type { RotateCertificateRequest } from '@partner-gateway/contract/self-service-certificates';
import { errors } from '../errors.js';
import { overlapEnd, retirementOf } from './overlap-end.js';
import type { Partner } from './partner.js';
import { liveCertificates, MAX_PARTNER_CERTIFICATES, validatePartnerCertificates, type RegisteredCertificate } from './partner-certificates.js';
import type { PartnerRepository } from './partner-repository.js';

/** A certificate rotation's outcome: the certificates before and after, the one added, and when the older ones stop. */
export interface CertificateRotation {
  before: RegisteredCertificate[];
  after: RegisteredCertificate[];
  added: RegisteredCertificate;
  /** When the certificates registered before stop being accepted (ISO 8601). */
  retireAt: string;
}

/**
 * A partner rotates its own client certificate (self_signed_tls_client_auth): the new certificate is accepted at
 * once, the ones it had keep working until the overlap window ends (`retiresAt`; one that already ends sooner keeps
 * its end), then stop by themselves, with no session ended unless `endSessions` asks. Certificates already past their end are dropped.
 * Refused: a certificate validatePartnerCertificates refuses (422: not one PEM certificate, expired, a private key
 * anywhere, never echoed), one already registered (409), a 21st (422), and a rotation another change overtook
 * (409: two at once never lose a certificate, one is refused). A subject DN (tls_client_auth) is left as it is: a
 * CA's new certificate for the same subject needs no rotation.
 *
 * @example
 * ```ts
 * const { added, retireAt } = await rotatePartnerCertificate(partner, { certificate: pem, overlapSeconds: 3600 }, { partners, now });
 * ```
 */
export async function rotatePartnerCertificate(
  partner: Partner,
  body: RotateCertificateRequest,
  deps: { partners: Pick<PartnerRepository, 'update'>; now: () => number },
): Promise<CertificateRotation> {
  const now = deps.now();
  const [added] = validatePartnerCertificates([body.certificate], new Date(now), () => 'certificate');
  const before = partner.certificates ?? [];
  const kept = liveCertificates(before, now);
  if (kept.some((certificate) => certificate.thumbprint === added!.thumbprint)) throw errors.certificateAlreadyRegistered();
  if (kept.length + 1 > MAX_PARTNER_CERTIFICATES) {
    throw errors.validationFailed([
      { field: 'certificate', message: `at most ${MAX_PARTNER_CERTIFICATES} certificates at once: wait for an overlap window to end, or ask the provider to remove a certificate` },
    ]);
  }
  const retireAt = retirementOf(now, body.overlapSeconds);
  const retiring = kept.map((certificate) => ({ ...certificate, retiresAt: overlapEnd(retireAt, certificate.retiresAt) }));
  const after = [...retiring, added!];
  const updated = await deps.partners.update(partner.login, { certificates: after, ...(body.endSessions ? { revokeTokens: true } : {}) }, { ifUpdatedAt: partner.updatedAt });
  if (!updated) throw errors.certificatesChangedMeanwhile();
  return { before, after, added: added!, retireAt: new Date(retireAt).toISOString() };
}
