import { AppError, errors } from '../../errors.js';
import type { ClientCertificate } from '../../mtls/client-certificate.js';
import { verifyClientCertificate, type ClientCertificateCheck, type ClientCertificateFailure } from './verify-client-certificate.js';
import type { Partner } from '../../partners/partner.js';
import { liveCertificates } from '../../partners/partner-certificates.js';
import type { AuthDependencies, AuthenticatedClient } from '../auth-dependencies.js';

/** RFC 8705 section 2's two methods. */
export type CertificateAuthMethod = 'self_signed_tls_client_auth' | 'tls_client_auth';
export const CERTIFICATE_AUTH_METHODS: readonly CertificateAuthMethod[] = ['self_signed_tls_client_auth', 'tls_client_auth'];

/**
 * Authenticates `login` by the certificate of the request's connection (the HTTPS listener's, or the trusted
 * proxy's header): the certificate is checked against both registrations the partner may have (one of its
 * registered certificates: self_signed_tls_client_auth; issued by a configured CA to its subject DN:
 * tls_client_auth), and only then is the method that matched checked against the partner's `authMethods`, as the
 * other methods do, so that the answer never tells the policy to someone probing it. Every refusal is
 * `invalid_client` (401), counted as a cheap failure of the address (no password involved, never locking one);
 * 429 when the address is locked.
 *
 * @example
 * ```ts
 * const { partner, method, certificateThumbprint } = await authenticateWithCertificate('acme', context.certificate, context.clientAddress, deps);
 * ```
 */
export async function authenticateWithCertificate(
  login: string,
  certificate: ClientCertificate | undefined,
  clientAddress: string,
  deps: Pick<AuthDependencies, 'partners' | 'guard' | 'trustedCas' | 'now'>,
): Promise<AuthenticatedClient & { method: CertificateAuthMethod }> {
  try {
    const partner = await deps.partners.findByLogin(login);
    if (!partner) throw errors.invalidClient('unknown_partner');
    const now = new Date(deps.now());
    const selfSigned = verifyClientCertificate(certificate, {
      method: 'self_signed_tls_client_auth',
      // A certificate whose rotation overlap has ended is no longer the partner's.
      thumbprints: liveCertificates(partner.certificates ?? [], now.getTime()).map((registered) => registered.thumbprint),
    }, now);
    const issued = verifyClientCertificate(certificate, { method: 'tls_client_auth', subjectDn: partner.subjectDn ?? undefined, trustedCas: deps.trustedCas?.() ?? [] }, now);
    const matched = CERTIFICATE_AUTH_METHODS.filter((method) => (method === 'self_signed_tls_client_auth' ? selfSigned : issued).ok);
    if (matched.length === 0) throw errors.invalidClient(failureReason(selfSigned, issued, partner));
    const method = matched.find((candidate) => partner.authMethods.includes(candidate));
    if (method === undefined) throw errors.invalidClient(`${matched[0]!}_not_allowed`);
    // A token issued now is bound to the certificate the client proved it holds.
    return { partner, method, ...(certificate ? { certificateThumbprint: certificate.thumbprint } : {}) };
  } catch (error) {
    if (error instanceof AppError && error.status === 401) return deps.guard.failCheap(error, clientAddress);
    throw error;
  }
}

/**
 * The reason that says most when neither way matched: a registered certificate out of its validity, else the CA
 * path's when the partner has a subject, else that the certificate is not one of its own.
 */
function failureReason(selfSigned: ClientCertificateCheck, issued: ClientCertificateCheck, partner: Partner): ClientCertificateFailure {
  const self = selfSigned.ok ? undefined : selfSigned.reason;
  const ca = issued.ok ? undefined : issued.reason;
  if (self === 'certificate_not_valid_now' || partner.subjectDn === null) return self ?? 'no_client_certificate';
  return ca ?? 'no_client_certificate';
}
