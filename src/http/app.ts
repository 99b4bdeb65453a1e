import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { lazyRequestLogger } from '../logging/lazy-request-logger.js';
import type { Logger } from 'pino';
import { publicUrl, trustedProxies } from '../config.js';
import type { RequestTimeouts } from '../mtls/request-timeouts.js';
import { publicTlsUrl } from '../mtls/tls-config.js';
import type { Gateway } from '../gateway.js';
import { clientErrorHandler, errorHandler, frameworkErrors } from './plugins/error-handler.js';
import { openApi } from './plugins/openapi.js';
import { jsonBody } from './plugins/json-body.js';
import { requestContext, requestIdOf } from './plugins/request-context.js';
import { requestOutcome } from './plugins/request-outcome.js';
import { methodNotAllowed } from './plugins/method-not-allowed.js';
import { openApiDescription } from './openapi-description.js';
import { banksRoutes } from './routes/banks.js';
import { loginRoutes } from './routes/login.js';
import { oauthRoutes } from './routes/oauth.js';
import { selfServiceRoutes } from './routes/self-service.js';
import { selfServiceWebhookRoutes } from './routes/self-service-webhooks.js';
import { selfServicePeopleRoutes } from './routes/self-service-people.js';
import { portalRoutes } from './routes/portal.js';
import { PORTAL_COOKIE } from './session-cookie.js';
import { sessionRoutes } from './routes/session.js';
import { wellKnownRoutes } from './routes/well-known.js';
import { tracing } from './plugins/tracing.js';
import type { Tracing } from '../telemetry/tracing.js';
import { GATEWAY_VERSION } from '../version.js';

export interface AppDependencies {
  gateway: Gateway;
  logger: Logger;
  /** How long clients may take to send a request; `REQUEST_TIMEOUTS` unless a test needs them short. */
  timeouts?: RequestTimeouts;
  /** OpenTelemetry's instrumentation when tracing is on (OTEL_EXPORTER_OTLP_ENDPOINT); nothing is traced without. */
  instrumentation?: Tracing['instrumentation'] | undefined;
}

/** The version both OpenAPI documents describe: the gateway's release (package.json, see version.ts). */
export const API_VERSION = GATEWAY_VERSION;

/** 64 KiB: far more than a login body needs, small enough that nobody can make us buffer much. */
export const PUBLIC_BODY_LIMIT = 64 * 1024;

/**
 * Slow clients (slowloris: headers or a body trickling in a byte at a time) are cut off after 10 s of
 * headers or 30 s of request, checked every second. A partner's request is a few hundred bytes from a
 * server, so these are generous. All three go to Node when the server is created: set afterwards (as
 * Fastify sets requestTimeout), Node's default headersTimeout of 60 s and check interval of 30 s left a
 * trickling body holding its connection for up to 90 s.
 */
export const REQUEST_TIMEOUTS: RequestTimeouts = { headersMs: 10_000, requestMs: 30_000, checkIntervalMs: 1_000 };

/**
 * Shared Fastify settings of both listeners: JSON-only bodies validated without type coercion, the pino
 * logger passed in, a request id on every line and every answer (the caller's X-Request-Id when well-formed),
 * trailing slashes optional, Fastify's own request logging off (ours redacts), slow clients cut off
 * (`REQUEST_TIMEOUTS`).
 */
export function fastifyOptions(logger: Logger, bodyLimit: number, timeouts: RequestTimeouts = REQUEST_TIMEOUTS) {
  return {
    loggerInstance: logger as FastifyBaseLogger,
    // A request's logger is pino's child only once it writes a line (lazy-request-logger.ts).
    childLoggerFactory: lazyRequestLogger,
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit,
    // Fastify's requestIdHeader would take any value a caller sends; requestIdOf keeps only a well-formed one.
    requestIdHeader: false as const,
    genReqId: requestIdOf,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    clientErrorHandler,
    frameworkErrors,
    // The drain plugin answers requests arriving during shutdown in the partners' error format instead.
    return503OnClosing: false,
    requestTimeout: timeouts.requestMs,
    http: {
      requestTimeout: timeouts.requestMs,
      headersTimeout: timeouts.headersMs,
      connectionsCheckingInterval: timeouts.checkIntervalMs,
    },
    ajv: { customOptions: { coerceTypes: false, removeAdditional: false, allErrors: true } },
  };
}

/**
 * The public API (login, banks, JWKS, health), built but not listening: `src/main.ts` listens, tests inject.
 *
 * @example
 * ```ts
 * const app = await buildApp({ gateway, logger });
 * const response = await app.inject({ method: 'POST', url: '/api/v1/login/', payload: { login, password } });
 * ```
 */
export async function buildApp({ gateway, logger, timeouts, instrumentation }: AppDependencies): Promise<FastifyInstance> {
  const app = Fastify({ ...fastifyOptions(logger, PUBLIC_BODY_LIMIT, timeouts), trustProxy: trustProxySetting(gateway) });
  // First: its request span must exist before the other hooks run, and it wraps the routes registered after it.
  if (instrumentation) await app.register(tracing, { instrumentation });
  await app.register(errorHandler, { validation: 'parameter' });
  await app.register(jsonBody);
  const tlsUrl = publicTlsUrl(gateway.config);
  await app.register(requestContext, {
    baseUrl: publicUrl(gateway.config),
    // With TLS_PORT the HTTPS listener is this app's and says which URL a request came by; without it, a proxy's
    // mutual-TLS alias (PUBLIC_TLS_URL) reaches the plain listener, which then answers to both addresses.
    ...(gateway.config.TLS_PORT !== undefined ? { tlsBaseUrl: tlsUrl } : tlsUrl !== undefined ? { baseUrlAliases: [tlsUrl] } : {}),
    ...(gateway.config.DPOP_NONCE === 'required' ? { dpopNonce: gateway.partnerApi.dpopNonce } : {}),
    // The HTTPS listener's peer certificate, or CLIENT_CERT_HEADER from a TRUST_PROXY address.
    certificates: { ...(gateway.config.CLIENT_CERT_HEADER ? { header: gateway.config.CLIENT_CERT_HEADER } : {}), trustedProxies: trustedProxies(gateway.config) },
    checkClientAddress: true,
    portalSessions: true,
    auditTrail: gateway.runtime.auditTrail,
  });
  await app.register(requestOutcome, { metrics: gateway.runtime.metrics, listener: 'public', auditTrail: gateway.runtime.auditTrail });
  await app.register(methodNotAllowed);
  await app.register(openApi, {
    title: 'Partner Gateway: SBP payouts partner API',
    version: API_VERSION,
    description: openApiDescription({
      providerSegment: gateway.config.PROVIDER_SEGMENT,
      jweMaxAge: gateway.config.JWE_MAX_AGE,
      jweMaxFuture: gateway.config.JWE_MAX_FUTURE,
    }),
    serverUrl: publicUrl(gateway.config),
    tags: [
      { name: 'Authentication', description: 'Access tokens' },
      { name: 'Banks', description: 'Banks that receive SBP transfers' },
      { name: 'OAuth', description: 'OAuth 2.0 for partners without a shared secret: client credentials with private_key_jwt, DPoP, introspection, revocation' },
      { name: 'Keys', description: 'Public keys' },
      { name: 'Self-service', description: "A partner's own automation (a client-credentials token of scope self): rotate its keys with an overlap window, find its calls by request id, see its usage" },
      { name: 'Portal', description: "The partner portal's own calls (`/portal/`): a partner user accepts an invitation with a passkey, signs in, signs out" },
      { name: 'Health', description: 'Probes' },
    ],
    securitySchemes: {
      bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
      dpopAuth: {
        type: 'http',
        scheme: 'DPoP',
        bearerFormat: 'JWT',
        description: 'RFC 9449: `Authorization: DPoP <access_token>` with a `DPoP` header, a fresh proof (htm, htu = the URL without query, ath = the token\'s SHA-256) signed by the key the token is bound to',
      },
      portalSession: { type: 'apiKey', in: 'cookie', name: PORTAL_COOKIE, description: "The partner portal's session (a partner user signed in with a passkey); its changes also carry `X-CSRF-Token`" },
      oauthClientBasic: { type: 'http', scheme: 'basic', description: 'client_secret_basic: the login and API password, each form-urlencoded first (RFC 6749 section 2.3.1)' },
    },
  });
  await app.register(loginRoutes, { gateway });
  await app.register(sessionRoutes, { gateway });
  await app.register(banksRoutes, { gateway });
  await app.register(wellKnownRoutes, { gateway });
  await app.register(oauthRoutes, { gateway });
  await app.register(selfServiceRoutes, { gateway });
  await app.register(selfServiceWebhookRoutes, { gateway });
  await app.register(selfServicePeopleRoutes, { gateway });
  await app.register(portalRoutes, { gateway });
  await app.answerOtherMethods();
  return app;
}

/** Only the proxies in TRUST_PROXY may set the client address through X-Forwarded-For. */
function trustProxySetting(gateway: Gateway): string[] | false {
  const proxies = trustedProxies(gateway.config);
  return proxies.length > 0 ? proxies : false;
}
