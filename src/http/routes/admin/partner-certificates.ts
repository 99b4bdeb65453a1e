import { PartnerCertificatesView, SetPartnerCertificatesBody } from '@partner-gateway/contract/admin-partner-certificates';
import { LoginParams } from '@partner-gateway/contract/admin-partners';
import { ErrorBody } from '@partner-gateway/contract/error-body';
import { ADMIN_PARTNER_CERTIFICATES_PATH } from '@partner-gateway/contract/paths';
import type { FastifyInstance } from 'fastify';
import type { Gateway } from '../../../gateway.js';

const errorResponses = { '4xx': ErrorBody, '5xx': ErrorBody };
const tags = ['Partners'];

/**
 * A partner's client certificates (self_signed_tls_client_auth) and subject DN (tls_client_auth): register them,
 * and remove them. Audited with their public identity before and after (thumbprints, names, validity).
 */
export async function adminPartnerCertificatesRoutes(app: FastifyInstance, { gateway }: { gateway: Gateway }): Promise<void> {
  const certificates = gateway.admin.partnerCertificates;
  app.put(
    ADMIN_PARTNER_CERTIFICATES_PATH,
    {
      config: { audit: 'partner.certificates.set' },
      schema: {
        operationId: 'setPartnerCertificates',
        tags,
        summary: "Register a partner's client certificates, or the subject DN of the certificates a configured CA issues it (mutual TLS, RFC 8705)",
        description:
          '`certificates` (PEM, at most 20) replaces the registered certificates, matched by SHA-256 thumbprint (self_signed_tls_client_auth); ' +
          '`subjectDn` replaces the subject a TLS_CLIENT_CA_FILE-issued certificate must carry, compared as an RFC 4514 name (tls_client_auth). ' +
          'Each leaves the other as it was. 422 for an expired certificate, anything not one PEM certificate, or a private key (never stored). ' +
          "Dropping a certificate or changing the subject ends the partner's sessions.",
        params: LoginParams,
        body: SetPartnerCertificatesBody,
        response: { 200: PartnerCertificatesView, ...errorResponses },
      },
    },
    async (request) => {
      const { login } = request.params as LoginParams;
      request.requestContext.audit.partner = login;
      const { before, after, sessionsEnded } = await certificates.set(login, request.body as SetPartnerCertificatesBody);
      request.requestContext.audit.details = { before: before.certificates, after: after.certificates, sessionsEnded };
      // A successful registration always leaves certificates or a subject, so the view is never null here.
      return after.certificates!;
    },
  );
  app.delete(
    ADMIN_PARTNER_CERTIFICATES_PATH,
    {
      config: { audit: 'partner.certificates.delete' },
      schema: {
        operationId: 'deletePartnerCertificates',
        tags,
        summary: "Remove a partner's client certificates and subject DN (mutual TLS then fails for it; its sessions end)",
        description: 'Answers 204 whether or not the partner had any (sessions end only when it had certificates); 404 for an unknown partner.',
        params: LoginParams,
        response: { 204: { type: 'null', description: 'Removed' }, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { login } = request.params as LoginParams;
      request.requestContext.audit.partner = login;
      const { before, sessionsEnded } = await certificates.remove(login);
      request.requestContext.audit.details = { before: before.certificates, after: null, sessionsEnded };
      return reply.code(204).send();
    },
  );
}
