import { MAX_PEM_CERTIFICATE_LENGTH } from '@partner-gateway/contract/admin-partner-certificates';
import { errors, type ErrorDetail } from '../errors.js';
import { CertificateReadError, readClientCertificate } from '../mtls/client-certificate.js';
import { DistinguishedNameError, formatDistinguishedName, parseDistinguishedName } from '../mtls/distinguished-name.js';
import { readPemBlocks } from '../mtls/pem-blocks.js';

/** A certificate a partner registered (self_signed_tls_client_auth), as stored and shown. */
export interface RegisteredCertificate {
  /** x5t#S256: what a presented certificate is matched by. */
  thumbprint: string;
  subjectDn: string;
  issuerDn: string;
  /** ISO 8601. */
  notBefore: string;
  notAfter: string;
  /** The certificate re-encoded from its DER: one canonical PEM block, whatever the admin's text looked like. */
  pem: string;
  /** ISO 8601: when a rotation's overlap window ends and the certificate stops being accepted; absent when none set one. */
  retiresAt?: string;
}

/**
 * The certificates still accepted at `at` (ms): those without an end, and those whose overlap window (`retiresAt`,
 * set by a rotation) has not ended. Their own validity (notBefore, notAfter) is checked where one is presented.
 *
 * @example
 * ```ts
 * liveCertificates(partner.certificates ?? [], Date.now()).map((certificate) => certificate.thumbprint);
 * ```
 */
export function liveCertificates(certificates: readonly RegisteredCertificate[], at: number): RegisteredCertificate[] {
  return certificates.filter((certificate) => certificate.retiresAt === undefined || Date.parse(certificate.retiresAt) > at);
}

export const MAX_PARTNER_CERTIFICATES = 20;
const MAX_DN_LENGTH = 1024;

/**
 * Checks the certificates an admin registers for a partner (`PUT .../certificates` with `{"certificates": [...]}`)
 * and returns them as stored. Throws 422 `validation_failed` naming each refused item: not one PEM certificate,
 * expired, a duplicate, more than 20. A PEM private key anywhere refuses the whole request with that one problem,
 * and its text is never echoed: whoever sent it has leaked it, and it must not reach the database or a log.
 * A certificate not valid yet is accepted, so that a partner can register its next certificate before it starts.
 * `fieldOf` names an item in the problems (`certificates[i]` by default; a rotation's single `certificate`).
 *
 * @example
 * ```ts
 * const certificates = validatePartnerCertificates(body.certificates);
 * certificates[0].thumbprint; // 'bwcK0esc3ACC3DB2Y5_lESsXE8o9ltc05O89jdN-dg2'
 * ```
 */
export function validatePartnerCertificates(input: unknown, now: Date = new Date(), fieldOf: (index: number) => string = (index) => `certificates[${index}]`): RegisteredCertificate[] {
  if (!Array.isArray(input) || input.length === 0) {
    throw errors.validationFailed([{ field: 'certificates', message: 'must be a non-empty array of PEM certificates' }]);
  }
  const keyAt = input.findIndex((item) => typeof item === 'string' && readPemBlocks(item).privateKey);
  if (keyAt >= 0) {
    throw errors.validationFailed([
      { field: fieldOf(keyAt), message: 'contains a private key; nothing was stored. Send certificates only, and replace that key: it has left its owner' },
    ]);
  }
  if (input.length > MAX_PARTNER_CERTIFICATES) {
    throw errors.validationFailed([{ field: 'certificates', message: `at most ${MAX_PARTNER_CERTIFICATES} certificates` }]);
  }
  const problems: ErrorDetail[] = [];
  const accepted: RegisteredCertificate[] = [];
  const seen = new Map<string, number>();
  for (const [index, item] of input.entries()) {
    const field = fieldOf(index);
    const result = readItem(item, now);
    if (typeof result === 'string') {
      problems.push({ field, message: result });
      continue;
    }
    const first = seen.get(result.thumbprint);
    if (first !== undefined) problems.push({ field, message: `the same certificate as ${fieldOf(first)}` });
    else {
      seen.set(result.thumbprint, index);
      accepted.push(result);
    }
  }
  if (problems.length > 0) throw errors.validationFailed(problems);
  return accepted;
}

/**
 * Checks the subject an admin registers for a partner whose certificates a configured CA issues
 * (`{"subjectDn": "CN=..."}`, tls_client_auth) and returns it in normalized RFC 4514 form (short names, no
 * spaces around separators). Throws 422 naming `subjectDn` when it is not one non-empty distinguished name.
 *
 * @example
 * ```ts
 * validateSubjectDn('cn = partner-one, O = Acme, C = RU'); // 'CN=partner-one,O=Acme,C=RU'
 * ```
 */
export function validateSubjectDn(input: unknown): string {
  const refuse = (message: string) => errors.validationFailed([{ field: 'subjectDn', message }]);
  if (typeof input !== 'string' || input.trim() === '') throw refuse('must be a distinguished name such as CN=partner-one,O=Acme,C=RU');
  if (input.length > MAX_DN_LENGTH) throw refuse(`must be at most ${MAX_DN_LENGTH} characters`);
  try {
    return formatDistinguishedName(parseDistinguishedName(input));
  } catch (error) {
    if (error instanceof DistinguishedNameError) throw refuse(`is ${error.message}`);
    throw error;
  }
}

function readItem(item: unknown, now: Date): RegisteredCertificate | string {
  if (typeof item !== 'string') return 'must be a PEM certificate (a string)';
  if (item.length > MAX_PEM_CERTIFICATE_LENGTH) return `must be at most ${MAX_PEM_CERTIFICATE_LENGTH} characters`;
  try {
    const certificate = readClientCertificate(item);
    if (certificate.notAfter.getTime() <= now.getTime()) return `expired on ${certificate.notAfter.toISOString()}`;
    return {
      thumbprint: certificate.thumbprint,
      subjectDn: certificate.subjectDn,
      issuerDn: certificate.issuerDn,
      notBefore: certificate.notBefore.toISOString(),
      notAfter: certificate.notAfter.toISOString(),
      pem: toPem(certificate.der),
    };
  } catch (error) {
    if (error instanceof CertificateReadError) return error.message;
    throw error;
  }
}

function toPem(der: Buffer): string {
  const lines = der.toString('base64').match(/.{1,64}/g) ?? [];
  return `-----BEGIN CERTIFICATE-----\n${lines.join('\n')}\n-----END CERTIFICATE-----\n`;
}
