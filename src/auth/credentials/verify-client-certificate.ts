import { X509Certificate } from 'node:crypto';
import { x509NameText, type ClientCertificate } from '../../mtls/client-certificate.js';
import { fromX509Name, parseDistinguishedName, sameDistinguishedName } from '../../mtls/distinguished-name.js';

/** Why a client certificate does not authenticate a partner; for the audit trail, never for the partner. */
export type ClientCertificateFailure =
  | 'no_client_certificate'
  | 'certificate_not_registered'
  | 'certificate_not_valid_now'
  | 'no_subject_registered'
  | 'certificate_not_issued_by_trusted_ca'
  | 'issuer_not_valid_now'
  | 'certificate_not_for_client_auth'
  | 'subject_mismatch';

export type ClientCertificateCheck = { ok: true } | { ok: false; reason: ClientCertificateFailure };

/** What a partner registered for the method it uses. */
export type ClientCertificateExpectation =
  /** The x5t#S256 thumbprints of the partner's registered certificates. */
  | { method: 'self_signed_tls_client_auth'; thumbprints: readonly string[] }
  /** The partner's registered subject DN, and TLS_CLIENT_CA_FILE's CAs (the listener's current ones). */
  | { method: 'tls_client_auth'; subjectDn: string | undefined; trustedCas: readonly X509Certificate[] };

const CLIENT_AUTH = '1.3.6.1.5.5.7.3.2';
const ANY_EXTENDED_KEY_USAGE = '2.5.29.37.0';

/**
 * RFC 8705 section 2's two ways a client certificate authenticates a partner:
 * - `self_signed_tls_client_auth` (2.2): the certificate is one the partner registered (by its SHA-256
 *   thumbprint, whoever issued it) and is valid now;
 * - `tls_client_auth` (2.1): the certificate was issued by one of the configured CAs (its issuer name and its
 *   signature checked against the CA's key, the CA a CA and valid now), is valid now, may be used for client
 *   authentication (extended key usage, when present), and its subject is the partner's subject DN compared as
 *   RFC 4514 names. The right subject from any other CA fails: the subject alone proves nothing.
 *
 * The TLS handshake itself does not check any of this (the listener accepts any certificate, so that partners
 * without one still connect); this check is what authenticates. Revocation (CRL, OCSP) is not checked.
 *
 * @example
 * ```ts
 * const check = verifyClientCertificate(context.certificate, { method: 'tls_client_auth', subjectDn: partner.subjectDn, trustedCas: tls.trustedCas() });
 * if (!check.ok) throw errors.invalidClient(check.reason);
 * ```
 */
export function verifyClientCertificate(
  certificate: ClientCertificate | undefined,
  expectation: ClientCertificateExpectation,
  now: Date = new Date(),
): ClientCertificateCheck {
  if (certificate === undefined) return fail('no_client_certificate');
  if (expectation.method === 'self_signed_tls_client_auth') {
    if (!expectation.thumbprints.includes(certificate.thumbprint)) return fail('certificate_not_registered');
    return validAt(certificate, now) ? { ok: true } : fail('certificate_not_valid_now');
  }
  if (expectation.subjectDn === undefined) return fail('no_subject_registered');
  if (!validAt(certificate, now)) return fail('certificate_not_valid_now');
  const x509 = new X509Certificate(certificate.der);
  const issuers = expectation.trustedCas.filter((ca) => ca.ca && x509.checkIssued(ca) && x509.verify(ca.publicKey));
  if (issuers.length === 0) return fail('certificate_not_issued_by_trusted_ca');
  if (!issuers.some((ca) => validAt({ notBefore: new Date(ca.validFrom), notAfter: new Date(ca.validTo) }, now))) return fail('issuer_not_valid_now');
  const usages = x509.keyUsage;
  if (usages !== undefined && !usages.includes(CLIENT_AUTH) && !usages.includes(ANY_EXTENDED_KEY_USAGE)) return fail('certificate_not_for_client_auth');
  return sameSubject(x509, expectation.subjectDn) ? { ok: true } : fail('subject_mismatch');
}

function sameSubject(x509: X509Certificate, subjectDn: string): boolean {
  try {
    const expected = parseDistinguishedName(subjectDn);
    // An empty name would match every certificate with an empty subject (allowed when it has a subjectAltName).
    if (expected.rdns.length === 0) return false;
    return sameDistinguishedName(fromX509Name(x509NameText(x509.subject)), expected);
  } catch {
    return false;
  }
}

function validAt(period: { notBefore: Date; notAfter: Date }, now: Date): boolean {
  return period.notBefore.getTime() <= now.getTime() && now.getTime() <= period.notAfter.getTime();
}

function fail(reason: ClientCertificateFailure): ClientCertificateCheck {
  return { ok: false, reason };
}
