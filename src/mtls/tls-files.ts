import type { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createSecureContext, type SecureContextOptions } from 'node:tls';
import { readCaBundle } from './ca-bundle.js';

export interface TlsFilePaths {
  /** TLS_CERT_FILE and TLS_KEY_FILE: the HTTPS listener's own certificate; both or neither. */
  certFile?: string;
  keyFile?: string;
  /** TLS_CLIENT_CA_FILE: the CAs of tls_client_auth (used with the listener or behind a proxy). */
  clientCaFile?: string;
}

/** The mutual-TLS files as last read successfully. */
export interface TlsFiles {
  /** What the HTTPS listener's secure context is made of; undefined without TLS_CERT_FILE. */
  secureContextOptions(): SecureContextOptions | undefined;
  /** TLS_CLIENT_CA_FILE's CAs (empty without it), for `verifyClientCertificate`'s tls_client_auth. */
  trustedCas(): readonly X509Certificate[];
  /** Reads every file again; throws (keeping what was read before) when any is missing or wrong. */
  reload(): void;
}

/** TLS 1.0 and 1.1 are deprecated (RFC 8996); FAPI 2.0 asks for 1.2 or later. */
export const MIN_TLS_VERSION = 'TLSv1.2';

/**
 * Reads the HTTPS listener's certificate and key and the client CA file, checking them as a whole (the key must
 * match the certificate: a secure context is built from them) before anything is replaced, so that a bad file
 * on SIGHUP leaves the gateway serving with the old ones. Throws at start when a file is missing or wrong;
 * error messages name the file and the problem, never a key's content.
 *
 * The client CAs are deliberately not part of the secure context: the handshake accepts any client certificate
 * and `verifyClientCertificate` decides. Left out, the CertificateRequest carries no CA names, so that clients
 * that pick a certificate by those names (Java's key managers, .NET) still send a self-signed one.
 *
 * @example
 * ```ts
 * const files = loadTlsFiles({ certFile: config.TLS_CERT_FILE, keyFile: config.TLS_KEY_FILE, clientCaFile: config.TLS_CLIENT_CA_FILE });
 * https.createServer({ ...files.secureContextOptions(), requestCert: true, rejectUnauthorized: false }, handler);
 * ```
 */
export function loadTlsFiles(paths: TlsFilePaths): TlsFiles {
  let current = readAll(paths);
  return {
    secureContextOptions: () => current.secureContextOptions,
    trustedCas: () => current.trustedCas,
    reload() {
      current = readAll(paths);
    },
  };
}

function readAll(paths: TlsFilePaths): { secureContextOptions?: SecureContextOptions; trustedCas: X509Certificate[] } {
  let secureContextOptions: SecureContextOptions | undefined;
  if (paths.certFile !== undefined && paths.keyFile !== undefined) {
    secureContextOptions = { cert: read(paths.certFile, 'TLS_CERT_FILE'), key: read(paths.keyFile, 'TLS_KEY_FILE'), minVersion: MIN_TLS_VERSION };
    try {
      createSecureContext(secureContextOptions);
    } catch (error) {
      // OpenSSL's reason ("key values mismatch", "no start line") names no key material.
      throw new Error(`TLS_CERT_FILE ${paths.certFile} and TLS_KEY_FILE ${paths.keyFile} cannot be used: ${(error as Error).message}`);
    }
  }
  let trustedCas: X509Certificate[] = [];
  if (paths.clientCaFile !== undefined) {
    const text = read(paths.clientCaFile, 'TLS_CLIENT_CA_FILE').toString('utf8');
    try {
      trustedCas = readCaBundle(text);
    } catch (error) {
      throw new Error(`TLS_CLIENT_CA_FILE ${paths.clientCaFile}: ${(error as Error).message}`);
    }
  }
  return { secureContextOptions, trustedCas };
}

function read(path: string, key: string): Buffer {
  try {
    return readFileSync(path);
  } catch (error) {
    throw new Error(`${key} ${path} cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
}
