import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import { trustedProxies } from '../config.js';
import type { Gateway } from '../gateway.js';
import { auditTrail } from './plugins/audit-trail.js';
import { clientErrorHandler, errorHandler, frameworkErrors } from './plugins/error-handler.js';
import { openApi } from './plugins/openapi.js';
import { requestLog } from './plugins/request-log.js';
import { securityHeaders } from './plugins/security-headers.js';
import { banksRoutes } from './routes/banks.js';
import { loginRoutes } from './routes/login.js';
import { sessionRoutes } from './routes/session.js';
import { wellKnownRoutes } from './routes/well-known.js';

export interface AppDependencies {
  gateway: Gateway;
  logger: Logger;
}

/** The version of the public API the OpenAPI document describes. */
export const API_VERSION = '1.0.0';

/** 64 KiB: far more than a login body needs, small enough that nobody can make us buffer much. */
export const PUBLIC_BODY_LIMIT = 64 * 1024;

/**
 * Shared Fastify settings of both listeners: JSON-only bodies validated without type coercion, the pino
 * logger passed in, a request id on every line, trailing slashes optional, Fastify's own request logging
 * off (ours redacts).
 */
export function fastifyOptions(logger: Logger, bodyLimit: number) {
  return {
    loggerInstance: logger as FastifyBaseLogger,
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit,
    requestIdHeader: false as const,
    genReqId: () => crypto.randomUUID(),
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    clientErrorHandler,
    frameworkErrors,
    requestTimeout: 30_000,
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
export async function buildApp({ gateway, logger }: AppDependencies): Promise<FastifyInstance> {
  const app = Fastify({ ...fastifyOptions(logger, PUBLIC_BODY_LIMIT), trustProxy: trustProxySetting(gateway) });
  await app.register(errorHandler, { validation: 'parameter' });
  await app.register(requestLog);
  await app.register(securityHeaders);
  await app.register(auditTrail, { writer: gateway.audit });
  await app.register(openApi, { providerSegment: gateway.config.PROVIDER_SEGMENT, version: API_VERSION });
  await app.register(loginRoutes, { gateway });
  await app.register(sessionRoutes, { gateway });
  await app.register(banksRoutes, { gateway });
  await app.register(wellKnownRoutes, { gateway });
  return app;
}

/** Only the proxies in TRUST_PROXY may set the client address through X-Forwarded-For. */
function trustProxySetting(gateway: Gateway): string[] | false {
  const proxies = trustedProxies(gateway.config);
  return proxies.length > 0 ? proxies : false;
}
