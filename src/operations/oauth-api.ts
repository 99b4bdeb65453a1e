import type { AuthorizationServerMetadata, IntrospectionRequestForm, IntrospectionResponse, RevocationRequestForm, TokenRequestForm } from '@partner-gateway/contract/oauth';
import { ACCEPTED_JWS_ALGS } from '../partners/partner-keys.js';
import type { GatewayMetrics } from '../metrics/gateway-metrics.js';
import type { RequestContext } from '../request-context.js';
import { introspectToken, type TokenIntrospectionDependencies } from './introspect-token.js';
import { issueClientToken, type ClientToken, type ClientTokenDependencies } from './issue-client-token.js';
import { revokeToken } from './revoke-token.js';
import { withMutualTls, type MutualTlsUrls } from './mutual-tls-metadata.js';

/** The public URLs the metadata document names. */
export interface OAuthUrls {
  issuer: string;
  token: string;
  introspection: string;
  revocation: string;
  jwks: string;
  /** The HTTPS listener's (or proxy's) addresses, when the gateway takes client certificates (RFC 8705). */
  mtls?: MutualTlsUrls | undefined;
}

export type OAuthApiDependencies = ClientTokenDependencies & TokenIntrospectionDependencies & {
  urls: OAuthUrls;
  /** Counts every token request: how the client authenticated (`none` when unreadable) and the outcome. */
  metrics: Pick<GatewayMetrics, 'countTokenRequest'>;
};

/** The OAuth 2.0 endpoints' operations, as the routes call them. */
export interface OAuthApi {
  /** Client credentials (RFC 6749 section 4.4) for an access token, DPoP-bound when a proof comes with it. */
  token(form: TokenRequestForm, context: RequestContext): Promise<ClientToken>;
  /** RFC 7662: what the caller's own token is; `active: false` for anything else. */
  introspect(form: IntrospectionRequestForm, context: RequestContext): Promise<IntrospectionResponse>;
  /** RFC 7009: revokes the caller's own token's family (the answer is the same whatever the token was). */
  revoke(form: RevocationRequestForm, context: RequestContext): Promise<void>;
  /** RFC 8414 authorization server metadata. */
  metadata(): AuthorizationServerMetadata;
}

/** Every endpoint authenticates clients the same three ways. */
export const CLIENT_AUTH_METHODS = ['private_key_jwt', 'client_secret_basic', 'client_secret_post'];

export function createOAuthApi(deps: OAuthApiDependencies): OAuthApi {
  const metadata: AuthorizationServerMetadata = withMutualTls({
    issuer: deps.urls.issuer,
    token_endpoint: deps.urls.token,
    jwks_uri: deps.urls.jwks,
    introspection_endpoint: deps.urls.introspection,
    revocation_endpoint: deps.urls.revocation,
    grant_types_supported: ['client_credentials'],
    // RFC 8414 requires the member; the gateway has no authorization endpoint, hence no response type.
    response_types_supported: [],
    token_endpoint_auth_methods_supported: CLIENT_AUTH_METHODS,
    token_endpoint_auth_signing_alg_values_supported: [...ACCEPTED_JWS_ALGS],
    dpop_signing_alg_values_supported: [...ACCEPTED_JWS_ALGS],
    introspection_endpoint_auth_methods_supported: CLIENT_AUTH_METHODS,
    introspection_endpoint_auth_signing_alg_values_supported: [...ACCEPTED_JWS_ALGS],
    revocation_endpoint_auth_methods_supported: CLIENT_AUTH_METHODS,
    revocation_endpoint_auth_signing_alg_values_supported: [...ACCEPTED_JWS_ALGS],
  }, deps.urls.mtls);
  return {
    async token(form, context) {
      try {
        const token = await issueClientToken(form, context, deps);
        deps.metrics.countTokenRequest(context.clientMethod ?? 'none', 'issued');
        return token;
      } catch (error) {
        deps.metrics.countTokenRequest(context.clientMethod ?? 'none', 'refused');
        throw error;
      }
    },
    introspect: (form, context) => introspectToken(form, context, deps),
    revoke: (form, context) => revokeToken(form, context, deps),
    metadata: () => metadata,
  };
}
