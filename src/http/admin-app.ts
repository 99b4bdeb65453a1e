import Fastify, { type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { Gateway } from '../gateway.js';
import { API_VERSION, fastifyOptions } from './app.js';
import { adminAuth } from './plugins/admin-auth.js';
import { adminConsole } from './plugins/admin-console.js';
import { errorHandler } from './plugins/error-handler.js';
import { jsonBody } from './plugins/json-body.js';
import { requestContext } from './plugins/request-context.js';
import { requestOutcome } from './plugins/request-outcome.js';
import { methodNotAllowed } from './plugins/method-not-allowed.js';
import { openApi } from './plugins/openapi.js';
import { adminAuditRoutes } from './routes/admin/audit.js';
import { adminBankRoutes } from './routes/admin/banks.js';
import { adminKeyRoutes } from './routes/admin/keys.js';
import { adminMetricsRoutes } from './routes/admin/metrics.js';
import { adminPartnerActivityRoutes } from './routes/admin/partner-activity.js';
import { adminPartnerJwksRoutes } from './routes/admin/partner-jwks.js';
import { adminPartnerCertificatesRoutes } from './routes/admin/partner-certificates.js';
import { adminPartnerRoutes } from './routes/admin/partners.js';

export interface AdminAppDependencies {
  gateway: Gateway;
  logger: Logger;
  adminToken: string;
  /** A second token that may read GET /metrics and nothing else (METRICS_TOKEN). */
  metricsToken?: string | undefined;
  /** Where operators reach this listener, for the document's `servers`; default the loopback ADMIN_PORT. */
  adminUrl?: string | undefined;
}

/**
 * The admin API, for the provider's operators and the CLI: its own listener (never the public port), every
 * route behind the admin bearer token, validation errors listing every offending field.
 */
export async function buildAdminApp({ gateway, logger, adminToken, metricsToken, adminUrl }: AdminAppDependencies): Promise<FastifyInstance> {
  const app = Fastify(fastifyOptions(logger, 1024 * 1024));
  await app.register(errorHandler, { validation: 'detailed' });
  await app.register(jsonBody);
  await app.register(requestContext, { baseUrl: adminUrl ?? `http://127.0.0.1:${gateway.config.ADMIN_PORT}`, auditTrail: gateway.runtime.auditTrail });
  await app.register(requestOutcome, { metrics: gateway.runtime.metrics, listener: 'admin', auditTrail: gateway.runtime.auditTrail });
  await app.register(adminAuth, { adminToken, metricsToken });
  await app.register(methodNotAllowed);
  await app.register(openApi, {
    title: 'Partner Gateway: admin API',
    version: API_VERSION,
    description:
      'The provider\'s operators\' API (also what the CLI and the web console call): partners, the bank list, keys and the audit trail. ' +
      'Every operation needs `Authorization: Bearer <ADMIN_TOKEN>`; this document and /docs do not. Errors are JSON `{"description_status": "...", "errors": [{"field", "message"}]}`.',
    serverUrl: adminUrl ?? `http://127.0.0.1:${gateway.config.ADMIN_PORT}`,
    tags: [
      { name: 'Partners', description: 'The partner registry' },
      { name: 'Banks', description: 'The SBP bank list partners receive' },
      { name: 'Keys', description: 'Signing and encryption keys' },
      { name: 'Audit', description: 'The audit trail' },
    ],
    securitySchemes: { adminToken: { type: 'http', scheme: 'bearer', description: 'ADMIN_TOKEN (or, for GET /metrics only, METRICS_TOKEN)' } },
    security: [{ adminToken: [] }],
    withoutCredential: true,
  });
  await app.register(adminPartnerRoutes, { gateway });
  await app.register(adminPartnerJwksRoutes, { gateway });
  await app.register(adminPartnerCertificatesRoutes, { gateway });
  await app.register(adminBankRoutes, { gateway });
  await app.register(adminKeyRoutes, { gateway });
  await app.register(adminAuditRoutes, { gateway });
  await app.register(adminPartnerActivityRoutes, { gateway });
  await app.register(adminMetricsRoutes, { metrics: gateway.runtime.metrics });
  await app.register(adminConsole, {});
  await app.answerOtherMethods();
  return app;
}
