import { adminEndpoint } from './admin-endpoint.js';
import { PartnerCertificatesView, SetPartnerCertificatesBody } from './admin-partner-certificates.js';
import { PartnerJwksView, SetPartnerJwksBody } from './admin-partner-keys.js';
import { LoginParams } from './admin-partners.js';
import { ADMIN_PARTNER_CERTIFICATES_PATH, ADMIN_PARTNER_JWKS_PATH } from './paths.js';

const tags = ['Partners'];
const REMOVED = { type: 'null', description: 'Removed' };

/**
 * A partner's credentials other than its password: its public keys for private_key_jwt and its client certificates
 * for mutual TLS. Setting one is a maker-checker action; the audit entry keeps the public view before and after
 * (never key or certificate material).
 */
export const PARTNER_CREDENTIAL_ENDPOINTS = {
  /**
   * Registers the partner's public keys, or the https URL of its JWK Set, replacing what it had
   * (PUT /admin/v1/partners/{login}/jwks); refused keys are a 422 naming each one.
   *
   * @example
   * ```ts
   * await admin.partners.setJwks('acme', { jwksUri: 'https://acme.example/.well-known/jwks.json' });
   * ```
   */
  setJwks: adminEndpoint({
    method: 'PUT',
    path: ADMIN_PARTNER_JWKS_PATH,
    operationId: 'setPartnerJwks',
    tags,
    summary: "Register a partner's public keys, or the https URL of its JWK Set (replaces what it had; dropping a key ends the partner's sessions)",
    description:
      'Keys: EC P-256, Ed25519, or RSA of at least 2048 bits, public members only, each kid once; 422 names every refused key. ' +
      'A jwksUri must be https (plain http only to a loopback address outside production) and is fetched once at once: a URL that serves no valid set is refused. ' +
      'Maker-checker action `partner.jwks.set`: when it needs approval, the answer is 202 with a proposal.',
    params: LoginParams,
    body: SetPartnerJwksBody,
    status: 200,
    answer: PartnerJwksView,
    permission: 'partners.credentials',
    audit: 'partner.jwks.set',
    checked: 'partner.jwks.set',
    cli: 'partner set-jwks',
    send: (login: string, body: SetPartnerJwksBody) => ({ params: { login }, body }),
  }),
  /** Removes the partner's public keys (DELETE /admin/v1/partners/{login}/jwks, 204). */
  deleteJwks: adminEndpoint({
    method: 'DELETE',
    path: ADMIN_PARTNER_JWKS_PATH,
    operationId: 'deletePartnerJwks',
    tags,
    summary: "Remove a partner's public keys (private_key_jwt then fails for it until new ones are registered; its sessions end)",
    description: 'Answers 204 whether or not the partner had keys (sessions end only when it had some); 404 for an unknown partner.',
    params: LoginParams,
    status: 204,
    answer: REMOVED,
    permission: 'partners.credentials',
    audit: 'partner.jwks.delete',
    uncheckedBecause: 'taking a credential away must never wait',
    cli: 'partner delete-jwks',
    send: (login: string) => ({ params: { login } }),
  }),
  /**
   * Registers the partner's client certificates (self_signed_tls_client_auth) or its subject DN (tls_client_auth)
   * (PUT /admin/v1/partners/{login}/certificates); an expired certificate, a non-certificate or a private key is a 422.
   *
   * @example
   * ```ts
   * await admin.partners.setCertificates('acme', { subjectDn: 'CN=acme-payouts,O=Acme,C=RU' });
   * ```
   */
  setCertificates: adminEndpoint({
    method: 'PUT',
    path: ADMIN_PARTNER_CERTIFICATES_PATH,
    operationId: 'setPartnerCertificates',
    tags,
    summary: "Register a partner's client certificates, or the subject DN of the certificates a configured CA issues it (mutual TLS, RFC 8705)",
    description:
      '`certificates` (PEM, at most 20) replaces the registered certificates, matched by SHA-256 thumbprint (self_signed_tls_client_auth); ' +
      '`subjectDn` replaces the subject a TLS_CLIENT_CA_FILE-issued certificate must carry, compared as an RFC 4514 name (tls_client_auth). ' +
      'Each leaves the other as it was. 422 for an expired certificate, anything not one PEM certificate, or a private key (never stored). ' +
      "Dropping a certificate or changing the subject ends the partner's sessions. " +
      'Maker-checker action `partner.certificates.set`: when it needs approval, the answer is 202 with a proposal.',
    params: LoginParams,
    body: SetPartnerCertificatesBody,
    status: 200,
    answer: PartnerCertificatesView,
    permission: 'partners.credentials',
    audit: 'partner.certificates.set',
    checked: 'partner.certificates.set',
    cli: 'partner set-certs',
    send: (login: string, body: SetPartnerCertificatesBody) => ({ params: { login }, body }),
  }),
  /** Removes the partner's certificates and subject DN (DELETE /admin/v1/partners/{login}/certificates, 204). */
  deleteCertificates: adminEndpoint({
    method: 'DELETE',
    path: ADMIN_PARTNER_CERTIFICATES_PATH,
    operationId: 'deletePartnerCertificates',
    tags,
    summary: "Remove a partner's client certificates and subject DN (mutual TLS then fails for it; its sessions end)",
    description: 'Answers 204 whether or not the partner had any (sessions end only when it had certificates); 404 for an unknown partner.',
    params: LoginParams,
    status: 204,
    answer: REMOVED,
    permission: 'partners.credentials',
    audit: 'partner.certificates.delete',
    uncheckedBecause: 'taking a credential away must never wait',
    cli: 'partner delete-certs',
    send: (login: string) => ({ params: { login } }),
  }),
};
