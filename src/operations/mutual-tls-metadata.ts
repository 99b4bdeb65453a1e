import type { AuthorizationServerMetadata } from '@partner-gateway/contract/oauth';
import { CERTIFICATE_AUTH_METHODS } from '../auth/credentials/authenticate-with-certificate.js';

/** The HTTPS (mutual TLS) addresses of the endpoints a client authenticates at (RFC 8705 section 5). */
export interface MutualTlsUrls {
  token: string;
  introspection: string;
  revocation: string;
}

/**
 * The metadata document with what RFC 8705 adds when the gateway takes client certificates (TLS_PORT or
 * PUBLIC_TLS_URL): `tls_client_certificate_bound_access_tokens`, the two methods at each endpoint, and
 * `mtls_endpoint_aliases` naming the HTTPS addresses. Without mutual TLS, the document is returned unchanged: a
 * method nobody can use is not advertised.
 *
 * @example
 * ```ts
 * withMutualTls(metadata, { token: 'https://gw.example:8443/api/v1/oauth/token', ... }).mtls_endpoint_aliases?.token_endpoint;
 * ```
 */
export function withMutualTls(metadata: AuthorizationServerMetadata, urls: MutualTlsUrls | undefined): AuthorizationServerMetadata {
  if (urls === undefined) return metadata;
  return {
    ...metadata,
    token_endpoint_auth_methods_supported: [...metadata.token_endpoint_auth_methods_supported, ...CERTIFICATE_AUTH_METHODS],
    introspection_endpoint_auth_methods_supported: [...metadata.introspection_endpoint_auth_methods_supported, ...CERTIFICATE_AUTH_METHODS],
    revocation_endpoint_auth_methods_supported: [...metadata.revocation_endpoint_auth_methods_supported, ...CERTIFICATE_AUTH_METHODS],
    tls_client_certificate_bound_access_tokens: true,
    mtls_endpoint_aliases: { token_endpoint: urls.token, introspection_endpoint: urls.introspection, revocation_endpoint: urls.revocation },
  };
}
