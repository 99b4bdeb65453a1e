import { SELF_CERTIFICATES_PATH } from '@partner-gateway/contract/paths';
import type { RotateCertificateRequest, RotateCertificateResponse, SelfCertificatesResponse } from '@partner-gateway/contract/self-service-certificates';
import { authenticateSelf } from '../auth/steps/authenticate-self.js';
import { rotatePartnerCertificate } from '../partners/partner-certificate-rotation.js';
import { liveCertificates } from '../partners/partner-certificates.js';
import { toPartnerCertificateView } from '../partners/partner-certificates-view.js';
import type { RequestContext } from '../request-context.js';
import type { SelfSettingsDependencies } from './self-service-settings.js';

type Dependencies = SelfSettingsDependencies & { now: () => number };

/**
 * GET /api/v1/self/certificates: the partner's registered client certificates still accepted (public identities
 * only), each with its `retiresAt` when a rotation set one.
 *
 * @example
 * ```ts
 * const { certificates } = await readOwnCertificates(context, deps);
 * ```
 */
export async function readOwnCertificates(context: RequestContext, deps: Dependencies): Promise<SelfCertificatesResponse> {
  const partner = await authenticateSelf(context, 'GET', SELF_CERTIFICATES_PATH, deps);
  return { certificates: liveCertificates(partner.certificates ?? [], deps.now()).map(toPartnerCertificateView) };
}

/**
 * POST /api/v1/self/certificates: adds a client certificate, the older ones working until the overlap window ends
 * (rotatePartnerCertificate). Needs a bound token, as every change does. The audit entry keeps thumbprints and
 * ends, never a PEM.
 *
 * @example
 * ```ts
 * const { added } = await rotateOwnCertificate({ certificate: pem, overlapSeconds: 3600 }, context, deps);
 * ```
 */
export async function rotateOwnCertificate(body: RotateCertificateRequest, context: RequestContext, deps: Dependencies): Promise<RotateCertificateResponse> {
  const partner = await authenticateSelf(context, 'POST', SELF_CERTIFICATES_PATH, deps, { changes: true });
  const rotation = await rotatePartnerCertificate(partner, body, deps);
  context.audit.details = {
    added: rotation.added.thumbprint,
    retiring: rotation.after.filter((certificate) => certificate !== rotation.added).map((certificate) => ({ thumbprint: certificate.thumbprint, retiresAt: certificate.retiresAt })),
    before: rotation.before.map((certificate) => certificate.thumbprint),
    sessionsEnded: body.endSessions === true,
  };
  return { certificates: rotation.after.map(toPartnerCertificateView), added: rotation.added.thumbprint };
}
