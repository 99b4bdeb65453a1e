import { X509Certificate } from 'node:crypto';
import { readPemBlocks } from './pem-blocks.js';

/**
 * Reads TLS_CLIENT_CA_FILE: one or more PEM CA certificates that issue partners' client certificates
 * (tls_client_auth). Throws an Error saying what is wrong (for the operator, at start or on SIGHUP) when the
 * text holds no certificate, anything but certificates, a private key, or a certificate that is not a CA
 * (no basicConstraints CA:TRUE): such a certificate must not be able to vouch for a partner.
 * An intermediate CA that issues partners' certificates must be in the file itself: a client certificate is
 * checked against its direct issuer only.
 *
 * @example
 * ```ts
 * const cas = readCaBundle(readFileSync(config.TLS_CLIENT_CA_FILE, 'utf8'));
 * ```
 */
export function readCaBundle(pem: string): X509Certificate[] {
  const { blocks, malformed, privateKey } = readPemBlocks(pem);
  if (privateKey) throw new Error('the CA file holds a private key; it must hold CA certificates only');
  if (malformed || blocks.length === 0 || blocks.some((block) => block.label !== 'CERTIFICATE')) {
    throw new Error('the CA file must hold one or more PEM CERTIFICATE blocks and nothing else');
  }
  return blocks.map((block, index) => {
    let certificate: X509Certificate;
    try {
      certificate = new X509Certificate(block.der);
    } catch {
      throw new Error(`certificate ${index + 1} of the CA file is not a valid X.509 certificate`);
    }
    if (!certificate.ca) throw new Error(`certificate ${index + 1} of the CA file (${(certificate.subject ?? '').replace(/\n/g, ', ')}) is not a CA certificate`);
    return certificate;
  });
}
