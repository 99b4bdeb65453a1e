import { readFile } from 'node:fs/promises';
import type { AdminApi } from '@partner-gateway/contract/admin-api-client';
import type { PartnerCertificatesView } from '@partner-gateway/contract/admin-partner-certificates';
import { CliError, print } from '@partner-gateway/client/cli/cli-io';
import type { Subcommand } from '@partner-gateway/client/cli/command-group';
import { parseCommand } from '@partner-gateway/client/cli/parse-command';

export const PARTNER_CERTIFICATE_EXAMPLES = `  partner-gateway partner set-certs acme acme-client.pem
  partner-gateway partner set-subject acme "CN=acme-payouts,O=Acme,C=RU"`;

/**
 * The partner commands about client certificates (mutual TLS, RFC 8705), part of `partnerCommands`.
 *
 * @example
 * ```sh
 * partner-gateway partner set-certs acme acme-client.pem acme-next.pem
 * partner-gateway partner set-subject acme "CN=acme-payouts,O=Acme,C=RU"
 * partner-gateway partner delete-certs acme --yes
 * ```
 */
export const partnerCertificateSubcommands: Record<string, Subcommand<AdminApi>> = {
  'set-certs': {
    synopsis: '<login> <pem-file>...',
    summary: "register the partner's client certificates (self_signed_tls_client_auth): PEM\nfiles, one certificate each; replaces its certificates (leaving one out ends\nthe partner's current sessions)",
    run: async (args, io, admin, usage) => {
      const { values, positionals } = parseCommand(args, {}, ['login', 'pem-file'], usage);
      if (values.help) return print(io, usage);
      const [login, ...files] = positionals as [string, ...string[]];
      const certificates = await Promise.all(files.map((path) => readFile(path, 'utf8').catch(() => {
        throw new CliError(`Cannot read ${path}\n${usage}`, 2);
      })));
      const view = await admin.partners.setCertificates(login, { certificates });
      return print(io, `Certificates of ${login} registered\n${describeCertificates(view)}`);
    },
  },
  'set-subject': {
    synopsis: '<login> <dn>',
    summary: "register the subject DN of the certificates TLS_CLIENT_CA_FILE's CAs issue the\npartner (tls_client_auth), e.g. \"CN=acme-payouts,O=Acme,C=RU\"",
    run: async (args, io, admin, usage) => {
      const { values, positionals } = parseCommand(args, {}, ['login', 'dn'], usage);
      if (values.help) return print(io, usage);
      const view = await admin.partners.setCertificates(positionals[0]!, { subjectDn: positionals[1]! });
      return print(io, `Subject of ${positionals[0]} registered\n${describeCertificates(view)}`);
    },
  },
  'delete-certs': {
    synopsis: '<login> --yes',
    summary: "remove the partner's certificates and subject (mutual TLS then fails for it)",
    run: async (args, io, admin, usage) => {
      const { values, positionals } = parseCommand(args, { yes: { type: 'boolean' } }, ['login'], usage);
      if (values.help) return print(io, usage);
      if (!values.yes) throw new CliError(`Without certificates the partner cannot use mutual TLS, and its current sessions end; confirm with --yes\n${usage}`, 2);
      await admin.partners.deleteCertificates(positionals[0]!);
      return print(io, `Certificates of ${positionals[0]} removed`);
    },
  },
};

/** One line per certificate (subject, thumbprint, expiry, flagged within 30 days), and the subject DN. */
export function describeCertificates(view: PartnerCertificatesView, now = Date.now()): string {
  const lines = view.certificates.map((certificate) => {
    const days = Math.floor((Date.parse(certificate.notAfter) - now) / 86_400_000);
    const warning = days < 0 ? '  EXPIRED' : days < 30 ? `  expires in ${days} days` : '';
    return `  certificate ${certificate.subject}  x5t#S256 ${certificate.thumbprint}  until ${certificate.notAfter}${warning}`;
  });
  lines.push(`  subject DN  ${view.subjectDn ?? '(none)'}`);
  return lines.join('\n');
}
