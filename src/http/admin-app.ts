import Fastify, { type FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { Gateway } from '../gateway.js';
import { API_VERSION, fastifyOptions } from './app.js';
import { adminAuth } from './plugins/admin-auth.js';
import { adminPermissions } from './plugins/admin-permissions.js';
import { adminConsole } from './plugins/admin-console.js';
import { errorHandler } from './plugins/error-handler.js';
import { jsonBody } from './plugins/json-body.js';
import { requestContext } from './plugins/request-context.js';
import { requestOutcome } from './plugins/request-outcome.js';
import { SESSION_COOKIE } from './session-cookie.js';
import { methodNotAllowed } from './plugins/method-not-allowed.js';
import { openApi } from './plugins/openapi.js';
import { adminApprovalRoutes } from './routes/admin/approvals.js';
import { adminAuditRoutes } from './routes/admin/audit.js';
import { adminBackupRoutes } from './routes/admin/backup.js';
import { adminBankSyncRoutes } from './routes/admin/bank-sync.js';
import { adminBankVersionRoutes } from './routes/admin/bank-versions.js';
import { adminBankRoutes } from './routes/admin/banks.js';
import { adminBankAdmissionRoutes } from './routes/admin/bank-admissions.js';
import { adminBankParticipantRoutes } from './routes/admin/bank-participants.js';
import { adminKeyRoutes } from './routes/admin/keys.js';
import { adminMetricsRoutes } from './routes/admin/metrics.js';
import { adminCredentialEndsRoutes } from './routes/admin/credential-ends.js';
import { adminPartnerActivityRoutes } from './routes/admin/partner-activity.js';
import { adminPartnerJwksRoutes } from './routes/admin/partner-jwks.js';
import { adminPartnerCertificatesRoutes } from './routes/admin/partner-certificates.js';
import { adminPartnerWebhookRoutes } from './routes/admin/partner-webhooks.js';
import { adminPartnerUserRoutes } from './routes/admin/partner-users.js';
import { adminOperatorRoutes } from './routes/admin/operators.js';
import { adminPartnerRoutes } from './routes/admin/partners.js';
import { adminSessionRoutes } from './routes/admin/session.js';
import { ssoRoutes } from './routes/admin/sso.js';
import { tracing } from './plugins/tracing.js';
import type { Tracing } from '../telemetry/tracing.js';

export interface AdminAppDependencies {
  gateway: Gateway;
  logger: Logger;
  adminToken: string;
  /** A second token that may read GET /metrics and nothing else (METRICS_TOKEN). */
  metricsToken?: string | undefined;
  /** Where operators reach this listener, for the document's `servers`; default the loopback ADMIN_PORT. */
  adminUrl?: string | undefined;
  /** OpenTelemetry's instrumentation when tracing is on (OTEL_EXPORTER_OTLP_ENDPOINT); nothing is traced without. */
  instrumentation?: Tracing['instrumentation'] | undefined;
}

/**
 * The admin API, for the provider's operators, the CLI and the console: its own listener (never the public port),
 * every route behind a credential (ADMIN_TOKEN, an operator's personal token, or the console's session cookie) and
 * the permission its route declares, validation errors listing every offending field.
 */
export async function buildAdminApp({ gateway, logger, adminToken, metricsToken, adminUrl, instrumentation }: AdminAppDependencies): Promise<FastifyInstance> {
  const app = Fastify(fastifyOptions(logger, 1024 * 1024));
  if (instrumentation) await app.register(tracing, { instrumentation });
  await app.register(errorHandler, { validation: 'detailed' });
  await app.register(jsonBody);
  await app.register(requestContext, { baseUrl: adminUrl ?? `http://127.0.0.1:${gateway.config.ADMIN_PORT}`, auditTrail: gateway.runtime.auditTrail });
  await app.register(requestOutcome, { metrics: gateway.runtime.metrics, listener: 'admin', auditTrail: gateway.runtime.auditTrail });
  await app.register(adminAuth, { adminToken, metricsToken, operators: gateway.operatorAuth });
  await app.register(methodNotAllowed);
  await app.register(openApi, {
    title: 'Partner Gateway: admin API',
    version: API_VERSION,
    description:
      'The provider\'s operators\' API (also what the CLI and the web console call): partners, the bank list, keys, the audit trail, operators and maker-checker. ' +
      'Every operation needs a credential: `Authorization: Bearer <token>` with an operator\'s personal token or the bootstrap ADMIN_TOKEN, or the console\'s session cookie (changes then send `X-CSRF-Token`); this document and /docs do not. ' +
      'Each operation names the permission it needs (`x-permission`) and the roles holding it: `viewer` reads everything but secrets; `operator` changes partners (not their credentials) and the bank list; `security` changes partner credentials, keys, operators, exports the audit trail, backs up the embedded database and sets maker-checker. ' +
      'Errors are JSON `{"description_status": "...", "errors": [{"field", "message"}]}`.',
    serverUrl: adminUrl ?? `http://127.0.0.1:${gateway.config.ADMIN_PORT}`,
    tags: [
      { name: 'Partners', description: 'The partner registry' },
      { name: 'Banks', description: 'The SBP bank list partners receive' },
      { name: 'Keys', description: 'Signing and encryption keys' },
      { name: 'Audit', description: 'The audit trail' },
      { name: 'Operators', description: 'Operators, their personal tokens, and who is signed in' },
      { name: 'Approvals', description: 'Maker-checker: proposals a second operator approves' },
      { name: 'Operations', description: 'Backups of the embedded database' },
    ],
    securitySchemes: {
      adminToken: { type: 'http', scheme: 'bearer', description: "An operator's personal token, or the bootstrap ADMIN_TOKEN (or, for GET /metrics only, METRICS_TOKEN)" },
      consoleSession: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE, description: "The console's single sign-on session; changes also send X-CSRF-Token" },
    },
    security: [{ adminToken: [] }, { consoleSession: [] }],
    withoutCredential: true,
  });
  // After the document's own routes, before every admin route: each of those must declare its permission.
  await app.register(adminPermissions);
  await app.register(adminPartnerRoutes, { gateway });
  await app.register(adminPartnerJwksRoutes, { gateway });
  await app.register(adminPartnerCertificatesRoutes, { gateway });
  await app.register(adminPartnerWebhookRoutes, { gateway });
  await app.register(adminPartnerUserRoutes, { gateway });
  await app.register(adminBankRoutes, { gateway });
  await app.register(adminBankVersionRoutes, { gateway });
  await app.register(adminBankSyncRoutes, { gateway });
  await app.register(adminBankAdmissionRoutes, { gateway });
  await app.register(adminBankParticipantRoutes, { gateway });
  await app.register(adminKeyRoutes, { gateway });
  await app.register(adminAuditRoutes, { gateway });
  await app.register(adminBackupRoutes, { gateway });
  await app.register(adminPartnerActivityRoutes, { gateway });
  await app.register(adminCredentialEndsRoutes, { gateway });
  await app.register(adminOperatorRoutes, { gateway });
  await app.register(adminApprovalRoutes, { gateway });
  await app.register(adminSessionRoutes, { gateway });
  await app.register(ssoRoutes, { gateway });
  await app.register(adminMetricsRoutes, { metrics: gateway.runtime.metrics });
  await app.register(adminConsole, {});
  await app.answerOtherMethods();
  return app;
}
