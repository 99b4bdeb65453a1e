import type { ClientCertificate } from '../../mtls/client-certificate.js';
import type { ClientAuthMethodName } from '../credentials/read-client-credentials.js';

/**
 * The `x5t#S256` a token issued now is bound to (RFC 8705 section 3): the connection's certificate when the client
 * authenticated by it (self_signed_tls_client_auth, tls_client_auth); undefined for every other method. A client
 * that authenticates otherwise over a connection with a certificate gets no certificate binding: the gateway binds
 * only what it authenticated, so a partner always knows what its token needs.
 *
 * @example
 * ```ts
 * certificateBinding('tls_client_auth', request.clientCertificate); // 'bwcK0esc3ACC3DB2Y5_lESsXE8o9ltc05O89jdN-dg2'
 * ```
 */
export function certificateBinding(method: ClientAuthMethodName, certificate: ClientCertificate | undefined): string | undefined {
  return method === 'self_signed_tls_client_auth' || method === 'tls_client_auth' ? certificate?.thumbprint : undefined;
}
