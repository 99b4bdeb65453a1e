import {
  AuthorizationServerMetadata,
  IntrospectionRequestForm,
  IntrospectionResponse,
  OAuthRefusal,
  OAuthTokenResponse,
  REPEATED_PARAMETER_RULE,
  RevocationRequestForm,
  TokenRequestForm,
} from '@partner-gateway/contract/oauth';
import { OAUTH_INTROSPECT_PATH, OAUTH_METADATA_PATH, OAUTH_REVOKE_PATH, OAUTH_TOKEN_PATH } from '@partner-gateway/contract/paths';
import { ErrorBody } from '@partner-gateway/contract/error-body';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { errors, texts } from '../../errors.js';
import type { Gateway } from '../../gateway.js';
import { formBody, formErrorFormatter } from '../plugins/form-body.js';
import { NO_STORE_HEADERS, partnerCallErrors } from './error-body.js';
import { noStore } from '../plugins/request-context.js';

/** The OAuth 2.0 refusals (RFC 6749 section 5.2's `error` and `error_description` beside `description_status`). */
const oauthRefusal = (description: string, headers?: Record<string, ReturnType<typeof Type.String>>) => ({ ...OAuthRefusal, description, ...(headers ? { headers } : {}) });

const OAUTH_ERRORS = {
  ...partnerCallErrors({
    403: [texts.blocked, texts.ipNotAllowed],
    413: [errors.payloadTooLarge().description],
    429: [errors.throttled(60).description],
  }),
  400: oauthRefusal('`invalid_request` (a parameter missing, repeated (`parameter <name> is repeated`: each at most once, RFC 6749 section 3.2) or invalid; two client authentications; a DPoP proof required), `unsupported_grant_type`, `invalid_dpop_proof`'),
  401: oauthRefusal('`invalid_client`: client authentication failed (every cause alike, but a client assertion\'s `aud` or `typ`, which `error_description` names)', {
    'WWW-Authenticate': Type.String({ description: '`Basic realm="partner-gateway"` when the client used client_secret_basic' }),
  }),
};

const DPOP_NONCE_HEADER = Type.String({ description: 'The nonce a DPoP proof must carry (every answer to a request with a proof, when the gateway requires nonces)' });

/** The token endpoint's refusals: the DPoP proof's too. */
const TOKEN_ERRORS = {
  ...OAUTH_ERRORS,
  400: oauthRefusal(
    '`invalid_request` (a parameter missing, repeated (`parameter <name> is repeated`: each at most once, RFC 6749 section 3.2) or invalid; two client authentications; a DPoP proof required), `unsupported_grant_type`, ' +
      '`invalid_scope` (scope `self` asked for by a client authenticated by a password), `invalid_dpop_proof` (`error_description` names what is wrong with the proof), `use_dpop_nonce` (with DPOP_NONCE=required: repeat with a new proof carrying this answer\'s `DPoP-Nonce`, RFC 9449 section 8)',
    { 'DPoP-Nonce': DPOP_NONCE_HEADER },
  ),
};

const CLIENT_AUTH_TEXT =
  'Authenticate the client with one of: `private_key_jwt` (client_assertion_type + client_assertion, RFC 7523: a JWT signed ES256, EdDSA or PS256 by a registered key, ' +
  '`typ` `client-authentication+jwt`, `JWT` or none, `iss` = `sub` = the login, `aud` = the issuer identifier as a single string (the token endpoint URL too where CLIENT_ASSERTION_AUDIENCES allows it), `exp` at most 5 minutes ahead, `jti` used once), ' +
  '`client_secret_basic` (Authorization: Basic, login and API password form-urlencoded first) or `client_secret_post` (client_id + client_secret), ' +
  'the last two only for partners allowed to use their password. ' +
  'Over a connection with a client certificate (the `mtls_endpoint_aliases` address), `client_id` alone authenticates by that certificate (RFC 8705: ' +
  '`self_signed_tls_client_auth`, a registered certificate; `tls_client_auth`, issued by a configured CA to the registered subject DN); the token is then bound to it (`cnf.x5t#S256`). ' +
  REPEATED_PARAMETER_RULE;

/**
 * What the three client-authenticated endpoints share: their audit action, form errors in the OAuth shape, and
 * the client a request claims recorded before validation, so that a refused form is still audited under it.
 */
function clientAuthenticated(action: 'token' | 'introspect' | 'revoke') {
  return {
    config: { audit: action },
    schemaErrorFormatter: formErrorFormatter,
    preValidation: async (request: FastifyRequest) => {
      request.requestContext.audit.partner = claimedClient(request.body, request.headers.authorization);
    },
  };
}

/** POST /api/v1/oauth/token, /introspect, /revoke (form bodies) and GET /.well-known/oauth-authorization-server. */
export async function oauthRoutes(untyped: FastifyInstance, { gateway }: { gateway: Gateway }): Promise<void> {
  const app = untyped.withTypeProvider<TypeBoxTypeProvider>();
  formBody(app);
  app.post(
    OAUTH_TOKEN_PATH,
    {
      ...clientAuthenticated('token'),
      schema: {
        operationId: 'oauthToken',
        tags: ['OAuth'],
        summary: 'Client credentials (RFC 6749 section 4.4): an access token for a partner authenticated by its key or password',
        description:
          `${CLIENT_AUTH_TEXT} With a \`DPoP\` header (RFC 9449: a proof with htm POST and htu this URL), the token is bound to the proof's key (token_type DPoP): ` +
          'send it as `Authorization: DPoP` with a fresh proof on every call. Partners required to use bound tokens get none without a proof. No refresh token: ask again.',
        consumes: ['application/x-www-form-urlencoded'],
        security: [{}, { oauthClientBasic: [] }],
        headers: Type.Object({ dpop: Type.Optional(Type.String({ description: 'A DPoP proof (RFC 9449) binding the token to its key' })) }),
        body: TokenRequestForm,
        response: { 200: { ...OAuthTokenResponse, headers: { ...NO_STORE_HEADERS, 'DPoP-Nonce': DPOP_NONCE_HEADER } }, ...TOKEN_ERRORS },
      },
    },
    async (request, reply) => {
      const token = await gateway.oauth.token(request.body, request.requestContext);
      noStore(reply);
      return { access_token: token.accessToken, token_type: token.tokenType, expires_in: token.expiresIn, ...(token.scope ? { scope: token.scope } : {}) } satisfies OAuthTokenResponse;
    },
  );
  app.post(
    OAUTH_INTROSPECT_PATH,
    {
      ...clientAuthenticated('introspect'),
      schema: {
        operationId: 'oauthIntrospect',
        tags: ['OAuth'],
        summary: "Token introspection (RFC 7662): what one of the caller's own access tokens is",
        description: `${CLIENT_AUTH_TEXT} Another partner's token, and a revoked, expired or unknown one, are \`{"active": false}\`.`,
        consumes: ['application/x-www-form-urlencoded'],
        security: [{}, { oauthClientBasic: [] }],
        body: IntrospectionRequestForm,
        response: { 200: { ...IntrospectionResponse, headers: NO_STORE_HEADERS }, ...OAUTH_ERRORS },
      },
    },
    async (request, reply) => {
      const answer = await gateway.oauth.introspect(request.body, request.requestContext);
      noStore(reply);
      return answer;
    },
  );
  // Its 200 has an empty body (RFC 7009), which a typed reply cannot send: typed by the contract's form instead.
  untyped.post<{ Body: RevocationRequestForm }>(
    OAUTH_REVOKE_PATH,
    {
      ...clientAuthenticated('revoke'),
      schema: {
        operationId: 'oauthRevoke',
        tags: ['OAuth'],
        summary: "Token revocation (RFC 7009): the caller's access or refresh token, and the session it belongs to, stop working everywhere within a second",
        description: `${CLIENT_AUTH_TEXT} The answer is 200 whatever the token was; another partner's token is not revoked.`,
        consumes: ['application/x-www-form-urlencoded'],
        security: [{}, { oauthClientBasic: [] }],
        body: RevocationRequestForm,
        response: { 200: Type.Null({ description: 'Done (or nothing to revoke)' }), ...OAUTH_ERRORS },
      },
    },
    async (request, reply) => {
      await gateway.oauth.revoke(request.body, request.requestContext);
      return reply.code(200).send();
    },
  );
  app.get(
    OAUTH_METADATA_PATH,
    {
      schema: {
        operationId: 'getOAuthServerMetadata',
        tags: ['OAuth'],
        summary: 'Authorization server metadata (RFC 8414): the issuer, the endpoints and what they accept',
        security: [],
        response: {
          200: { ...AuthorizationServerMetadata, headers: { 'Cache-Control': Type.String({ description: '`public, max-age=300`' }) } },
          '4xx': ErrorBody,
        },
      },
    },
    async (_request, reply) => {
      reply.header('cache-control', 'public, max-age=300');
      return gateway.oauth.metadata();
    },
  );
}

/**
 * The client a request claims to be, for the audit trail of a refused request (whether or not it proves it):
 * the form's client_id, else the Basic user, else the assertion's unverified `iss`. Never a secret.
 */
export function claimedClient(body: unknown, authorization: string | undefined): string | undefined {
  const fields = (body ?? {}) as { client_id?: unknown; client_assertion?: unknown };
  const claimed = typeof fields.client_id === 'string' ? fields.client_id : (basicUser(authorization) ?? assertionIssuer(fields.client_assertion));
  return typeof claimed === 'string' && claimed.length > 0 && claimed.length <= 256 ? claimed : undefined;
}

function basicUser(authorization: string | undefined): string | undefined {
  const encoded = /^Basic +([A-Za-z0-9+/]+=*) *$/i.exec(authorization ?? '')?.[1];
  if (!encoded) return undefined;
  const decoded = Buffer.from(encoded, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  try {
    return colon > 0 ? decodeURIComponent(decoded.slice(0, colon).replace(/\+/g, ' ')) : undefined;
  } catch {
    return undefined;
  }
}

function assertionIssuer(assertion: unknown): string | undefined {
  if (typeof assertion !== 'string' || assertion.length > 8192) return undefined;
  try {
    const iss = (JSON.parse(Buffer.from(assertion.split('.')[1] ?? '', 'base64url').toString('utf8')) as { iss?: unknown }).iss;
    return typeof iss === 'string' ? iss : undefined;
  } catch {
    return undefined;
  }
}
