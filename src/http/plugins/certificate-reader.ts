import { TLSSocket } from 'node:tls';
import type { FastifyRequest } from 'fastify';
import { CertificateReadError, readClientCertificate, type ClientCertificate } from '../../mtls/client-certificate.js';
import { parseClientCertificateHeader } from '../../mtls/client-certificate-header.js';
import { isAddressAllowed, normalizeCidr } from '../../partners/ip-allowlist.js';

export interface CertificateSource {
  /** CLIENT_CERT_HEADER; unset, certificates come only from the HTTPS listener's connections. */
  header?: string;
  /** TRUST_PROXY's entries: only requests whose socket comes from one of them may carry the header. */
  trustedProxies: readonly string[];
}

/** Addresses already logged for sending the header untrusted; bounded so that a flood cannot grow it. */
const SUSPICIOUS_MEMORY = 1_000;

/**
 * Reads the certificate a request's client presented, once per request (and once per TLS connection: the parsed
 * certificate is kept with the socket, so keep-alive requests reuse it); undefined when there is none. Presenting
 * one proves nothing by itself (the handshake accepts any): `verifyClientCertificate` decides.
 * - Over the HTTPS listener (a TLS socket): the peer certificate, present even when the handshake did not
 *   authorize it (`requestCert: true, rejectUnauthorized: false`). A header on such a request is ignored.
 * - Otherwise, when CLIENT_CERT_HEADER is set and the socket's address is in TRUST_PROXY: the header's certificate.
 *   A malformed header gives undefined and a warning (the proxy is misconfigured; the partner is not at fault,
 *   and a route that needs no certificate must still work).
 * - From any other address the header is ignored and logged once per address as suspicious: a partner (or an
 *   attacker next door) claiming a certificate it never proved to hold. The value is never logged.
 *
 * @example
 * ```ts
 * const readCertificate = createCertificateReader({ header: config.CLIENT_CERT_HEADER, trustedProxies: trustedProxies(config) });
 * readCertificate(request)?.thumbprint;
 * ```
 */
export function createCertificateReader(options: CertificateSource): (request: FastifyRequest) => ClientCertificate | undefined {
  const header = options.header?.toLowerCase();
  const proxies = options.trustedProxies.flatMap((entry) => {
    const read = normalizeCidr(entry);
    return 'cidr' in read ? [read.cidr] : [];
  });
  const fromSockets = new WeakMap<TLSSocket, ClientCertificate | null>();
  const suspicious = new Set<string>();

  const peerCertificate = (socket: TLSSocket, request: FastifyRequest): ClientCertificate | undefined => {
    const known = fromSockets.get(socket);
    if (known !== undefined) return known ?? undefined;
    const raw = socket.getPeerCertificate(true)?.raw;
    let certificate: ClientCertificate | null = null;
    if (raw) {
      try {
        certificate = readClientCertificate(raw);
      } catch (error) {
        if (!(error instanceof CertificateReadError)) throw error;
        request.log.warn({ reason: 'unreadable_client_certificate' }, `client certificate ${error.message}`);
      }
    }
    fromSockets.set(socket, certificate);
    return certificate ?? undefined;
  };

  const logSuspicious = (request: FastifyRequest, address: string) => {
    if (suspicious.has(address)) return;
    if (suspicious.size >= SUSPICIOUS_MEMORY) suspicious.clear();
    suspicious.add(address);
    request.log.warn({ reason: 'untrusted_client_certificate_header', address, header }, 'ignored a client certificate header from an address not in TRUST_PROXY');
  };

  return (request) => {
    const socket = request.raw.socket;
    const address = socket.remoteAddress ?? '';
    const value = header === undefined ? undefined : request.headers[header];
    const trusted = value !== undefined && isAddressAllowed(address, proxies);
    if (value !== undefined && !trusted) logSuspicious(request, address);
    if (socket instanceof TLSSocket) return peerCertificate(socket, request);
    if (!trusted) return undefined;
    if (typeof value !== 'string') {
      request.log.warn({ reason: 'repeated_client_certificate_header', header }, 'the trusted proxy sent the client certificate header more than once; ignored');
      return undefined;
    }
    try {
      return parseClientCertificateHeader(value);
    } catch (error) {
      if (!(error instanceof CertificateReadError)) throw error;
      request.log.warn({ reason: 'unreadable_client_certificate_header', header }, `client certificate header ${error.message}`);
      return undefined;
    }
  };
}
