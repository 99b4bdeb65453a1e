import { Type, type Static } from 'typebox';

/**
 * The OAuth 2.0 endpoints' wire shapes: the token endpoint (client credentials, RFC 6749 section 4.4, with
 * private_key_jwt per RFC 7523 or the API password per client_secret_basic/post, and DPoP per RFC 9449),
 * introspection (RFC 7662), revocation (RFC 7009) and the server metadata (RFC 8414). Request bodies are
 * `application/x-www-form-urlencoded`, parsed into these objects; a parameter sent without a value is treated as
 * omitted (RFC 6749 section 3.1), which is why every field's minLength is 1: no field is ever empty.
 */

export const CLIENT_ASSERTION_TYPE_JWT_BEARER = 'urn:ietf:params:oauth:client-assertion-type:jwt-bearer';

/** The grant types the token endpoint accepts (RFC 6749 section 4.4); any other is `unsupported_grant_type`. */
export const GRANT_TYPES = ['client_credentials'] as const;
export type GrantType = (typeof GRANT_TYPES)[number];

/**
 * RFC 6749 section 3.2: every parameter of an OAuth form is sent at most once. A form cannot show a repeated
 * parameter, so the rule is stated in words in each form's description and its 400.
 */
export const REPEATED_PARAMETER_RULE =
  'Each parameter at most once (RFC 6749 section 3.2): a repeated parameter is refused with 400 `invalid_request` ("parameter <name> is repeated"); a parameter without a value counts as omitted.';

/** The form fields every OAuth endpoint reads to authenticate the client (besides `Authorization: Basic`). */
const clientAuthentication = {
  client_id: Type.Optional(Type.String({ minLength: 1, maxLength: 256, description: 'The partner\'s login (required with client_secret)' })),
  client_secret: Type.Optional(Type.String({ minLength: 1, maxLength: 1024, description: 'client_secret_post: the API password (with client_id)' })),
  client_assertion_type: Type.Optional(Type.Enum([CLIENT_ASSERTION_TYPE_JWT_BEARER], { description: 'private_key_jwt (with client_assertion)' })),
  client_assertion: Type.Optional(Type.String({ minLength: 1, maxLength: 8192, description: 'private_key_jwt: a JWT signed with one of the partner\'s keys (with client_assertion_type)' })),
};

/**
 * What the server holds of a form's client authentication, as JSON Schema: the private_key_jwt pair comes
 * together, client_secret with client_id, and one method at a time (client_secret_post or private_key_jwt; and
 * neither with `Authorization: Basic`, which a schema of the form cannot say). `if`/`then` rather than
 * `dependentRequired`, which the validator's draft-07 vocabulary lacks.
 */
const oneClientAuthentication = {
  allOf: [
    { if: { required: ['client_assertion'] }, then: { required: ['client_assertion_type'] } },
    { if: { required: ['client_assertion_type'] }, then: { required: ['client_assertion'] } },
    { if: { required: ['client_secret'] }, then: { required: ['client_id'] } },
  ],
  not: { anyOf: [{ required: ['client_secret', 'client_assertion'] }, { required: ['client_secret', 'client_assertion_type'] }] },
};

/**
 * POST /api/v1/oauth/token form.
 *
 * @example
 * ```
 * grant_type=client_credentials&client_assertion_type=urn%3Aietf%3Aparams%3Aoauth%3Aclient-assertion-type%3Ajwt-bearer&client_assertion=eyJ...
 * ```
 */
export const TokenRequestForm = Type.Object(
  {
    grant_type: Type.Enum(GRANT_TYPES, { description: 'Only `client_credentials` (any other is 400 `unsupported_grant_type`)' }),
    scope: Type.Optional(Type.String({ minLength: 1, maxLength: 1024, description: 'Space-separated. `self` asks for the self-service API (`/api/v1/self/…`), granted only to a client authenticated by private_key_jwt or a certificate (else 400 `invalid_scope`); other values are ignored: a token grants the partner API as the partner\'s settings allow' })),
    ...clientAuthentication,
  },
  { title: 'TokenRequestForm', additionalProperties: true, ...oneClientAuthentication, description: REPEATED_PARAMETER_RULE },
);
export type TokenRequestForm = Static<typeof TokenRequestForm>;

/**
 * The token endpoint's answer (no refresh token: RFC 6749 section 4.4.3).
 *
 * @example
 * ```json
 * { "access_token": "eyJ...", "token_type": "DPoP", "expires_in": 900 }
 * ```
 */
export const OAuthTokenResponse = Type.Object({
  access_token: Type.String({ description: 'JWT (RFC 9068, ES256): send as `Authorization: DPoP` with a proof when token_type is DPoP, else as Bearer' }),
  token_type: Type.Union([Type.Literal('Bearer'), Type.Literal('DPoP')]),
  expires_in: Type.Integer({ description: 'Token lifetime in seconds' }),
  scope: Type.Optional(Type.String({ description: 'The scope granted (`self`), when one was asked for and granted' })),
}, { title: 'OAuthTokenResponse' });
export type OAuthTokenResponse = Static<typeof OAuthTokenResponse>;

/** The `error` codes the OAuth endpoints answer (RFC 6749 section 5.2, RFC 9449 section 5, RFC 7009). */
export const OAUTH_ERROR_CODES = ['invalid_request', 'invalid_client', 'unsupported_grant_type', 'invalid_dpop_proof', 'use_dpop_nonce', 'unsupported_token_type', 'invalid_scope'] as const;

/**
 * An OAuth endpoint's refusal: RFC 6749 section 5.2's `error` and `error_description`, plus the gateway's own
 * `description_status`, so that OAuth libraries and the seed's clients both read it.
 *
 * @example
 * ```json
 * { "error": "invalid_client", "error_description": "Client authentication failed", "description_status": "User failed authorization; access to the resource is restricted" }
 * ```
 */
export const OAuthErrorBody = Type.Object({
  error: Type.String({ description: OAUTH_ERROR_CODES.map((code) => `\`${code}\``).join(', ') }),
  error_description: Type.String(),
  description_status: Type.String(),
}, { title: 'OAuthErrorBody' });
export type OAuthErrorBody = Static<typeof OAuthErrorBody>;

/**
 * What the OAuth endpoints answer 400 and 401 with: an OAuthErrorBody, but for a request refused before it could
 * be read as an OAuth request (a broken URL, a value the database cannot hold), which carries
 * `description_status` alone.
 */
export const OAuthRefusal = Type.Object({
  error: Type.Optional(OAuthErrorBody.properties.error),
  error_description: Type.Optional(OAuthErrorBody.properties.error_description),
  description_status: OAuthErrorBody.properties.description_status,
}, { title: 'OAuthRefusal' });
export type OAuthRefusal = Static<typeof OAuthRefusal>;

/** POST /api/v1/oauth/introspect form (RFC 7662 section 2.1), with the same client authentication as the token endpoint. */
export const IntrospectionRequestForm = Type.Object(
  {
    token: Type.String({ minLength: 1, maxLength: 8192, description: 'An access token' }),
    token_type_hint: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
    ...clientAuthentication,
  },
  { title: 'IntrospectionRequestForm', additionalProperties: true, ...oneClientAuthentication, description: REPEATED_PARAMETER_RULE },
);
export type IntrospectionRequestForm = Static<typeof IntrospectionRequestForm>;

/**
 * RFC 7662 section 2.2: `active: false` alone for a token that is not the caller's, or revoked, expired or unknown.
 *
 * @example
 * ```json
 * { "active": true, "client_id": "acme", "sub": "acme", "iat": 1763800000, "exp": 1763800900, "token_type": "DPoP", "cnf": { "jkt": "0ZcOCORZ..." } }
 * ```
 */
export const IntrospectionResponse = Type.Object({
  active: Type.Boolean(),
  client_id: Type.Optional(Type.String()),
  sub: Type.Optional(Type.String()),
  iss: Type.Optional(Type.String()),
  aud: Type.Optional(Type.String()),
  iat: Type.Optional(Type.Integer()),
  exp: Type.Optional(Type.Integer()),
  token_type: Type.Optional(Type.Union([Type.Literal('Bearer'), Type.Literal('DPoP')])),
  cnf: Type.Optional(
    Type.Object({
      jkt: Type.Optional(Type.String({ description: 'RFC 9449: the thumbprint of the key the token is bound to' })),
      'x5t#S256': Type.Optional(Type.String({ description: 'RFC 8705: the thumbprint of the certificate the token is bound to' })),
    }),
  ),
}, { title: 'IntrospectionResponse' });
export type IntrospectionResponse = Static<typeof IntrospectionResponse>;

/**
 * POST /api/v1/oauth/revoke form (RFC 7009 section 2.1): an access token or a refresh token. `token_type_hint`
 * is only a hint: the token is found whatever it says.
 *
 * @example
 * ```
 * token=Zm9v...&token_type_hint=refresh_token&client_id=acme&client_secret=...
 * ```
 */
export const RevocationRequestForm = Type.Object(
  {
    token: Type.String({ minLength: 1, maxLength: 8192, description: 'An access token, or a refresh token (which ends its whole login)' }),
    token_type_hint: Type.Optional(
      Type.String({ minLength: 1, maxLength: 64, description: '`access_token` or `refresh_token`; only a hint: any value, or none, finds the token' }),
    ),
    ...clientAuthentication,
  },
  { title: 'RevocationRequestForm', additionalProperties: true, ...oneClientAuthentication, description: REPEATED_PARAMETER_RULE },
);
export type RevocationRequestForm = Static<typeof RevocationRequestForm>;

/** GET /.well-known/oauth-authorization-server (RFC 8414). */
export const AuthorizationServerMetadata = Type.Object(
  {
    issuer: Type.String({ description: 'PUBLIC_URL (TOKEN_ISSUER when set): equal to every access token\'s `iss`' }),
    token_endpoint: Type.String(),
    jwks_uri: Type.String(),
    introspection_endpoint: Type.String(),
    revocation_endpoint: Type.String(),
    grant_types_supported: Type.Array(Type.String()),
    response_types_supported: Type.Array(Type.String()),
    token_endpoint_auth_methods_supported: Type.Array(Type.String()),
    token_endpoint_auth_signing_alg_values_supported: Type.Array(Type.String()),
    dpop_signing_alg_values_supported: Type.Array(Type.String()),
    introspection_endpoint_auth_methods_supported: Type.Array(Type.String()),
    introspection_endpoint_auth_signing_alg_values_supported: Type.Array(Type.String()),
    revocation_endpoint_auth_methods_supported: Type.Array(Type.String()),
    revocation_endpoint_auth_signing_alg_values_supported: Type.Array(Type.String()),
    /** RFC 8705: present (true) only when the gateway takes client certificates (TLS_PORT or PUBLIC_TLS_URL). */
    tls_client_certificate_bound_access_tokens: Type.Optional(Type.Boolean()),
    /** RFC 8705 section 5: the HTTPS addresses to use with a client certificate; present with mutual TLS only. */
    mtls_endpoint_aliases: Type.Optional(
      Type.Object({ token_endpoint: Type.String(), introspection_endpoint: Type.String(), revocation_endpoint: Type.String() }, { additionalProperties: true }),
    ),
  },
  { title: 'AuthorizationServerMetadata', additionalProperties: true },
);
export type AuthorizationServerMetadata = Static<typeof AuthorizationServerMetadata>;
