import { readFile } from 'node:fs/promises';
import type { AdminApi } from '@partner-gateway/contract/admin-api-client';
import type { PartnerCertificatesView } from '@partner-gateway/contract/admin-partner-certificates';
import { CliError, print, type CliIo } from '../cli-io.js';
import { parseCommand } from '../parse-command.js';

/** The usage lines of the commands below, for `partner --help`. */
export const PARTNER_CERTIFICATE_USAGE = `  set-certs <login> <pem-file>...  register the partner's client certificates (self_signed_tls_client_auth): PEM
                                  files, one certificate each; replaces its certificates (leaving one out ends
                                  the partner's current sessions)
  set-subject <login> <dn>        register the subject DN of the certificates TLS_CLIENT_CA_FILE's CAs issue the
                                  partner (tls_client_auth), e.g. "CN=acme-payouts,O=Acme,C=RU"
  delete-certs <login> --yes      remove the partner's certificates and subject (mutual TLS then fails for it)`;

export const PARTNER_CERTIFICATE_EXAMPLES = `  partner-gateway partner set-certs acme acme-client.pem
  partner-gateway partner set-subject acme "CN=acme-payouts,O=Acme,C=RU"`;

const usageOf = (line: string) => `Usage: partner-gateway partner ${line}`;

/**
 * The partner commands about client certificates (mutual TLS, RFC 8705); false when `command` is none of them.
 *
 * @example
 * ```sh
 * partner-gateway partner set-certs acme acme-client.pem acme-next.pem
 * partner-gateway partner set-subject acme "CN=acme-payouts,O=Acme,C=RU"
 * partner-gateway partner delete-certs acme --yes
 * ```
 */
export async function partnerCertificateCommand(command: string, rest: string[], io: CliIo, admin: AdminApi): Promise<boolean> {
  switch (command) {
    case 'set-certs': {
      const usage = usageOf('set-certs <login> <pem-file>...');
      const { values, positionals } = parseCommand(rest, {}, ['login', 'pem-file'], usage);
      if (values.help) return print(io, usage), true;
      const [login, ...files] = positionals as [string, ...string[]];
      const certificates = await Promise.all(files.map((path) => readFile(path, 'utf8').catch(() => {
        throw new CliError(`Cannot read ${path}\n${usage}`, 2);
      })));
      const view = await admin.partners.setCertificates(login, { certificates });
      print(io, `Certificates of ${login} registered\n${describeCertificates(view)}`);
      return true;
    }
    case 'set-subject': {
      const usage = usageOf('set-subject <login> <dn>');
      const { values, positionals } = parseCommand(rest, {}, ['login', 'dn'], usage);
      if (values.help) return print(io, usage), true;
      const view = await admin.partners.setCertificates(positionals[0]!, { subjectDn: positionals[1]! });
      print(io, `Subject of ${positionals[0]} registered\n${describeCertificates(view)}`);
      return true;
    }
    case 'delete-certs': {
      const usage = usageOf('delete-certs <login> --yes');
      const { values, positionals } = parseCommand(rest, { yes: { type: 'boolean' } }, ['login'], usage);
      if (values.help) return print(io, usage), true;
      if (!values.yes) throw new CliError(`Without certificates the partner cannot use mutual TLS, and its current sessions end; confirm with --yes\n${usage}`, 2);
      await admin.partners.deleteCertificates(positionals[0]!);
      print(io, `Certificates of ${positionals[0]} removed`);
      return true;
    }
    default:
      return false;
  }
}

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
