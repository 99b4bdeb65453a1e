import Fastify, { type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { Gateway } from '../gateway.js';
import { fastifyOptions } from './app.js';
import { adminAuth } from './plugins/admin-auth.js';
import { adminConsole } from './plugins/admin-console.js';
import { auditTrail } from './plugins/audit-trail.js';
import { errorHandler } from './plugins/error-handler.js';
import { drain } from './plugins/drain.js';
import { httpMetrics } from './plugins/http-metrics.js';
import { requestLog } from './plugins/request-log.js';
import { securityHeaders } from './plugins/security-headers.js';
import { adminAuditRoutes } from './routes/admin/audit.js';
import { adminBankRoutes } from './routes/admin/banks.js';
import { adminKeyRoutes } from './routes/admin/keys.js';
import { adminMetricsRoutes } from './routes/admin/metrics.js';
import { adminPartnerActivityRoutes } from './routes/admin/partner-activity.js';
import { adminPartnerRoutes } from './routes/admin/partners.js';

export interface AdminAppDependencies {
  gateway: Gateway;
  logger: Logger;
  adminToken: string;
  /** A second token that may read GET /metrics and nothing else (METRICS_TOKEN). */
  metricsToken?: string | undefined;
}

/**
 * The admin API, for the provider's operators and the CLI: its own listener (never the public port), every
 * route behind the admin bearer token, validation errors listing every offending field.
 */
export async function buildAdminApp({ gateway, logger, adminToken, metricsToken }: AdminAppDependencies): Promise<FastifyInstance> {
  const app = Fastify(fastifyOptions(logger, 1024 * 1024));
  await app.register(errorHandler, { validation: 'detailed' });
  await app.register(drain);
  await app.register(requestLog);
  await app.register(httpMetrics, { metrics: gateway.metrics, listener: 'admin' });
  await app.register(securityHeaders);
  await app.register(auditTrail, { writer: gateway.audit });
  await app.register(adminAuth, { adminToken, metricsToken });
  await app.register(adminPartnerRoutes, { gateway });
  await app.register(adminBankRoutes, { gateway });
  await app.register(adminKeyRoutes, { gateway });
  await app.register(adminAuditRoutes, { gateway });
  await app.register(adminPartnerActivityRoutes, { gateway });
  await app.register(adminMetricsRoutes, { metrics: gateway.metrics });
  await app.register(adminConsole, {});
  return app;
}
