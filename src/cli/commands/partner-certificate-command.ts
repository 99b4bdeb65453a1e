import { readFile } from 'node:fs/promises';
import { CERTIFICATE_EXPIRY_WARNING_DAYS, type PartnerCertificatesView, type SetPartnerCertificatesBody } from '@partner-gateway/contract/admin-partner-certificates';
import { CliError } from '@partner-gateway/client/cli/cli-io';
import type { PartnerSubresourceCommands } from './partner-subresource-command.js';

/**
 * A partner's client certificates and subject DN (mutual TLS, RFC 8705), as `partner-gateway partner` handles them.
 *
 * @example
 * ```sh
 * partner-gateway partner set-certs acme acme-client.pem acme-next.pem
 * partner-gateway partner set-subject acme "CN=acme-payouts,O=Acme,C=RU"
 * partner-gateway partner delete-certs acme --yes
 * ```
 */
export const partnerCertificateCommands: PartnerSubresourceCommands<SetPartnerCertificatesBody, PartnerCertificatesView> = {
  set: [
    {
      name: 'set-certs',
      arguments: ['pem-file...'],
      help: [
        "register the partner's client certificates (self_signed_tls_client_auth): PEM",
        'files, one certificate each; replaces its certificates (leaving one out ends',
        "the partner's current sessions)",
      ],
      noun: 'Certificates',
      read: async (files, usage) => ({
        certificates: await Promise.all(
          files.map((path) =>
            readFile(path, 'utf8').catch(() => {
              throw new CliError(`Cannot read ${path}\n${usage}`, 2);
            }),
          ),
        ),
      }),
    },
    {
      name: 'set-subject',
      arguments: ['dn'],
      help: ["register the subject DN of the certificates TLS_CLIENT_CA_FILE's CAs issue the", 'partner (tls_client_auth), e.g. "CN=acme-payouts,O=Acme,C=RU"'],
      noun: 'Subject',
      read: ([subjectDn]) => ({ subjectDn: subjectDn! }),
    },
  ],
  delete: {
    name: 'delete-certs',
    help: ["remove the partner's certificates and subject (mutual TLS then fails for it)"],
    noun: 'Certificates',
    consequence: 'Without certificates the partner cannot use mutual TLS, and its current sessions end',
  },
  api: (admin) => ({ set: (login, body) => admin.partners.setCertificates(login, body), remove: (login) => admin.partners.deleteCertificates(login) }),
  viewOf: (partner) => partner.certificates,
  describe: (view) => describeCertificates(view),
  none: '  certificates: (none)',
  examples: ['partner-gateway partner set-certs acme acme-client.pem', 'partner-gateway partner set-subject acme "CN=acme-payouts,O=Acme,C=RU"'],
};

/** One line per certificate (subject, thumbprint, expiry, flagged from CERTIFICATE_EXPIRY_WARNING_DAYS before it), and the subject DN. */
function describeCertificates(view: PartnerCertificatesView, now = Date.now()): string {
  const lines = view.certificates.map((certificate) => {
    const days = Math.floor((Date.parse(certificate.notAfter) - now) / 86_400_000);
    const warning = days < 0 ? '  EXPIRED' : days < CERTIFICATE_EXPIRY_WARNING_DAYS ? `  expires in ${days} days` : '';
    return `  certificate ${certificate.subject}  x5t#S256 ${certificate.thumbprint}  until ${certificate.notAfter}${warning}`;
  });
  lines.push(`  subject DN  ${view.subjectDn ?? '(none)'}`);
  return lines.join('\n');
}
