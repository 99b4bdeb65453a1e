import { createHash, X509Certificate } from 'node:crypto';
import { formatDistinguishedName, fromX509Name } from './distinguished-name.js';
import { readPemBlocks } from './pem-blocks.js';

/**
 * A client certificate as the gateway uses it: plain data, cheap to keep per connection. The names are RFC 4514
 * strings in normalized form (short names, least significant RDN first); compare them with
 * `sameDistinguishedName`, never as strings.
 */
export interface ClientCertificate {
  /** SHA-256 of the DER, base64url: RFC 8705's `x5t#S256`, the value a bound token's `cnf` carries. */
  thumbprint: string;
  subjectDn: string;
  issuerDn: string;
  notBefore: Date;
  notAfter: Date;
  der: Buffer;
}

/** Bytes or text that are not exactly one X.509 certificate. The message names no content of the input. */
export class CertificateReadError extends Error {
  override name = 'CertificateReadError';
}

/**
 * Reads one X.509 certificate, from DER (what `tlsSocket.getPeerCertificate(true).raw` gives) or from a PEM text
 * holding exactly one `CERTIFICATE` block and nothing else. Throws `CertificateReadError` otherwise.
 *
 * @example
 * ```ts
 * const certificate = readClientCertificate(socket.getPeerCertificate(true).raw);
 * certificate.thumbprint; // 'bwcK0esc3ACC3DB2Y5_lESsXE8o9ltc05O89jdN-dg2' (x5t#S256)
 * ```
 */
export function readClientCertificate(input: Buffer | string): ClientCertificate {
  const der = typeof input === 'string' ? singleCertificateDer(input) : input;
  let x509: X509Certificate;
  try {
    x509 = new X509Certificate(der);
  } catch {
    throw new CertificateReadError('is not a valid X.509 certificate');
  }
  return describeCertificate(x509);
}

/** The same view of a certificate node has already parsed (a CA bundle's, say). */
export function describeCertificate(x509: X509Certificate): ClientCertificate {
  const der = x509.raw;
  let subjectDn: string;
  let issuerDn: string;
  try {
    subjectDn = formatDistinguishedName(fromX509Name(x509NameText(x509.subject)));
    issuerDn = formatDistinguishedName(fromX509Name(x509NameText(x509.issuer)));
  } catch {
    throw new CertificateReadError('has a subject or issuer name that cannot be read');
  }
  return {
    thumbprint: createHash('sha256').update(der).digest('base64url'),
    subjectDn,
    issuerDn,
    notBefore: new Date(x509.validFrom),
    notAfter: new Date(x509.validTo),
    der,
  };
}

/**
 * Node gives `undefined`, despite its types, for an empty name (a subject left empty beside a subjectAltName,
 * which RFC 5280 allows): read as the empty name rather than refusing a valid certificate.
 */
export function x509NameText(name: string | undefined): string {
  return name ?? '';
}

function singleCertificateDer(pem: string): Buffer {
  const { blocks, malformed, privateKey } = readPemBlocks(pem);
  if (privateKey) throw new CertificateReadError('contains a private key');
  if (malformed || blocks.length !== 1 || blocks[0]!.label !== 'CERTIFICATE') {
    throw new CertificateReadError('must be exactly one PEM CERTIFICATE block');
  }
  return blocks[0]!.der;
}
