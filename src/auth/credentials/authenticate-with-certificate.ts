import type { X509Certificate } from 'node:crypto';
import { AppError, errors } from '../../errors.js';
import type { ClientCertificate } from '../../mtls/client-certificate.js';
import { verifyClientCertificate, type ClientCertificateCheck, type ClientCertificateFailure } from './verify-client-certificate.js';
import type { Partner } from '../../partners/partner.js';
import type { PartnerRepository } from '../../partners/partner-repository.js';
import type { BruteForceGuard } from '../steps/brute-force-guard.js';
import type { ClientAuthenticationForm } from './read-client-credentials.js';

/** RFC 8705 section 2's two methods. */
export type CertificateAuthMethod = 'self_signed_tls_client_auth' | 'tls_client_auth';
export const CERTIFICATE_AUTH_METHODS: readonly CertificateAuthMethod[] = ['self_signed_tls_client_auth', 'tls_client_auth'];

export interface CertificateAuthenticationDependencies {
  partners: Pick<PartnerRepository, 'findByLogin'>;
  guard: Pick<BruteForceGuard, 'failCheap'>;
  /**
   * TLS_CLIENT_CA_FILE's CAs as last (re)loaded: asked on every check, so that a SIGHUP counts from the next request.
   * Absent, no CA is trusted (tls_client_auth always fails).
   */
  trustedCas?: (() => readonly X509Certificate[]) | undefined;
  now: () => number;
}

/**
 * The client_id of a request that authenticates by its TLS client certificate (RFC 8705 section 2): a form with
 * `client_id` and no other client authentication (no secret, no assertion, no `Authorization` header). Undefined
 * for anything else, which the other methods read (and refuse, when it is nothing at all).
 *
 * @example
 * ```ts
 * certificateClientId({ grant_type: 'client_credentials', client_id: 'acme' }, undefined); // 'acme'
 * ```
 */
export function certificateClientId(form: ClientAuthenticationForm, authorization: string | undefined): string | undefined {
  const other = authorization !== undefined || form.client_secret !== undefined || form.client_assertion !== undefined || form.client_assertion_type !== undefined;
  return !other && form.client_id ? form.client_id : undefined;
}

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
 * const { partner, method } = await authenticateWithCertificate('acme', request.clientCertificate, deps);
 * ```
 */
export async function authenticateWithCertificate(
  login: string,
  certificate: ClientCertificate | undefined,
  clientAddress: string,
  deps: CertificateAuthenticationDependencies,
): Promise<{ partner: Partner; method: CertificateAuthMethod }> {
  try {
    const partner = await deps.partners.findByLogin(login);
    if (!partner) throw errors.invalidClient('unknown_partner');
    const now = new Date(deps.now());
    const selfSigned = verifyClientCertificate(certificate, {
      method: 'self_signed_tls_client_auth',
      thumbprints: (partner.certificates ?? []).map((registered) => registered.thumbprint),
    }, now);
    const issued = verifyClientCertificate(certificate, { method: 'tls_client_auth', subjectDn: partner.subjectDn ?? undefined, trustedCas: deps.trustedCas?.() ?? [] }, now);
    const matched = CERTIFICATE_AUTH_METHODS.filter((method) => (method === 'self_signed_tls_client_auth' ? selfSigned : issued).ok);
    if (matched.length === 0) throw errors.invalidClient(failureReason(selfSigned, issued, partner));
    const method = matched.find((candidate) => partner.authMethods.includes(candidate));
    if (method === undefined) throw errors.invalidClient(`${matched[0]!}_not_allowed`);
    return { partner, method };
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
