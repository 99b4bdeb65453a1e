import { Type, type Static } from 'typebox';

/** The admin API's shapes for a partner's client certificates (mutual TLS, RFC 8705; issue 14). */

/** The longest PEM certificate accepted: far above any real one (a few KiB), low enough that no request makes the gateway parse megabytes. */
export const MAX_PEM_CERTIFICATE_LENGTH = 16 * 1024;

/**
 * PUT /admin/v1/partners/{login}/certificates body, one of:
 * - `certificates`: the PEM certificates the partner may present (self_signed_tls_client_auth: matched by their
 *   SHA-256 thumbprint, whoever issued them); replaces the certificates it had. An expired certificate, anything
 *   that is not one PEM certificate, or a private key is refused (422).
 * - `subjectDn`: the subject distinguished name of the certificates one of TLS_CLIENT_CA_FILE's CAs issues to the
 *   partner (tls_client_auth), compared as an RFC 4514 name; replaces the subject it had.
 * Each leaves the other as it was: a partner may hold both (DELETE removes both).
 *
 * @example
 * ```json
 * { "certificates": ["-----BEGIN CERTIFICATE-----\nMIIB...\n-----END CERTIFICATE-----\n"] }
 * ```
 * @example
 * ```json
 * { "subjectDn": "CN=acme-payouts,O=Acme,C=RU" }
 * ```
 */
export const SetPartnerCertificatesBody = Type.Union([
  Type.Object(
    {
      certificates: Type.Array(Type.String({ minLength: 1, maxLength: MAX_PEM_CERTIFICATE_LENGTH }), {
        minItems: 1,
        maxItems: 20,
        description: 'PEM certificates, one per item (certificates only: a private key is refused and never stored)',
      }),
    },
    { additionalProperties: false },
  ),
  Type.Object(
    { subjectDn: Type.String({ minLength: 1, maxLength: 1024, description: 'RFC 4514 subject DN, e.g. CN=acme-payouts,O=Acme,C=RU' }) },
    { additionalProperties: false },
  ),
], { title: 'SetPartnerCertificatesBody' });
export type SetPartnerCertificatesBody = Static<typeof SetPartnerCertificatesBody>;

/** One of a partner's registered certificates as the admin API shows it (never more than its public identity). */
export const PartnerCertificateView = Type.Object({
  /** RFC 8705 `x5t#S256`: SHA-256 of the DER, base64url. */
  thumbprint: Type.String(),
  /** RFC 4514, normalized (short attribute names). */
  subject: Type.String(),
  issuer: Type.String(),
  notBefore: Type.String({ format: 'date-time' }),
  notAfter: Type.String({ format: 'date-time' }),
  /** When a rotation (POST /api/v1/self/certificates) ends this certificate's overlap window; absent when none did. */
  retiresAt: Type.Optional(Type.String({ format: 'date-time' })),
}, { title: 'PartnerCertificateView' });
export type PartnerCertificateView = Static<typeof PartnerCertificateView>;

/** A partner's certificates (self_signed_tls_client_auth) and subject DN (tls_client_auth). */
export const PartnerCertificatesView = Type.Object({
  certificates: Type.Array(PartnerCertificateView),
  /** Normalized RFC 4514; null when none is registered. */
  subjectDn: Type.Union([Type.String(), Type.Null()]),
}, { title: 'PartnerCertificatesView' });
export type PartnerCertificatesView = Static<typeof PartnerCertificatesView>;

/** A certificate is shown as expiring (console warning, `/metrics`) from this many days before its notAfter. */
export const CERTIFICATE_EXPIRY_WARNING_DAYS = 30;
