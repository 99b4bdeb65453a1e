import { CertificateReadError, readClientCertificate, type ClientCertificate } from './client-certificate.js';

/** A URL-encoded PEM certificate is 2 to 5 KiB; a chain or anything larger is not what the header carries. */
export const MAX_CLIENT_CERTIFICATE_HEADER = 16 * 1024;

/**
 * Reads the client certificate a TLS-terminating proxy forwards in CLIENT_CERT_HEADER: URL-encoded PEM, as
 * nginx's `$ssl_client_escaped_cert` writes it (`proxy_set_header X-Client-Cert $ssl_client_escaped_cert;`).
 * Empty means the client sent none (nginx sends an empty value then): undefined. Strict otherwise: at most
 * 16 KiB, valid percent-encoding, exactly one CERTIFICATE block and nothing else; throws
 * `CertificateReadError` (whose message quotes nothing of the value) for anything else.
 *
 * Only a request from a TRUST_PROXY address may be read this way (see the client-certificate plugin): from
 * anyone else the header is a claim to a certificate nobody proved to hold.
 *
 * @example
 * ```ts
 * parseClientCertificateHeader('-----BEGIN%20CERTIFICATE-----%0AMIIB...%0A-----END%20CERTIFICATE-----%0A').thumbprint;
 * ```
 */
export function parseClientCertificateHeader(value: string): ClientCertificate | undefined {
  if (value.trim() === '') return undefined;
  if (value.length > MAX_CLIENT_CERTIFICATE_HEADER) throw new CertificateReadError(`is longer than ${MAX_CLIENT_CERTIFICATE_HEADER} characters`);
  let pem: string;
  try {
    pem = decodeURIComponent(value);
  } catch {
    throw new CertificateReadError('is not valid percent-encoding');
  }
  return readClientCertificate(pem);
}
