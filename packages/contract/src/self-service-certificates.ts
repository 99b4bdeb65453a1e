import { Type, type Static } from 'typebox';
import { MAX_PEM_CERTIFICATE_LENGTH, PartnerCertificateView } from './admin-partner-certificates.js';
import { EndSessions, OverlapSeconds } from './self-service.js';

/**
 * GET /api/v1/self/certificates answer: the client certificates the partner may present
 * (self_signed_tls_client_auth), each with `retiresAt` when a rotation set its end. Only public identities: the
 * gateway never holds a private key.
 *
 * @example
 * ```json
 * { "certificates": [{ "thumbprint": "bwcK0esc…", "subject": "CN=acme-payouts,O=Acme", "issuer": "CN=acme-payouts,O=Acme", "notBefore": "2026-01-01T00:00:00.000Z", "notAfter": "2027-01-01T00:00:00.000Z" }] }
 * ```
 */
export const SelfCertificatesResponse = Type.Object({ certificates: Type.Array(PartnerCertificateView) }, { title: 'SelfCertificatesResponse' });
export type SelfCertificatesResponse = Static<typeof SelfCertificatesResponse>;

/**
 * POST /api/v1/self/certificates body: a new client certificate (PEM, certificate only: a private key anywhere is
 * refused and never stored), and how long the certificates registered so far keep working beside it. A
 * certificate not valid yet is accepted, so the next one can be registered before it starts.
 *
 * @example
 * ```json
 * { "certificate": "-----BEGIN CERTIFICATE-----\nMIIB…\n-----END CERTIFICATE-----\n", "overlapSeconds": 3600 }
 * ```
 */
export const RotateCertificateRequest = Type.Object(
  {
    certificate: Type.String({ minLength: 1, maxLength: MAX_PEM_CERTIFICATE_LENGTH, description: 'The new PEM certificate (one certificate, no private key)' }),
    overlapSeconds: OverlapSeconds('How long the certificates registered so far stay accepted (default 24 hours, at most 30 days; 0 retires them at once)'),
    endSessions: EndSessions(),
  },
  { title: 'RotateCertificateRequest', additionalProperties: false },
);
export type RotateCertificateRequest = Static<typeof RotateCertificateRequest>;

/** POST /api/v1/self/certificates answer: the certificates as they now are (the older ones with their `retiresAt`). */
export const RotateCertificateResponse = Type.Object(
  {
    certificates: Type.Array(PartnerCertificateView),
    /** The thumbprint (x5t#S256) of the certificate just added. */
    added: Type.String(),
  },
  { title: 'RotateCertificateResponse' },
);
export type RotateCertificateResponse = Static<typeof RotateCertificateResponse>;
