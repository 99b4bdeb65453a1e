import { createHash, timingSafeEqual } from 'node:crypto';
import { BEARER_REGEXP } from '@partner-gateway/contract/patterns';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { errors } from '../../errors.js';
import type { Actor } from '../../request-context.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A static file of the admin console (page or asset): served without the token, GET and HEAD only. */
    adminConsoleAsset?: boolean;
    /** The metrics endpoint: also readable with METRICS_TOKEN. */
    metricsScrape?: boolean;
  }
}

/**
 * Requires `Authorization: Bearer <ADMIN_TOKEN>` on every admin request but the console's static files. Both
 * sides are hashed before the constant-time comparison so that neither the token's content nor its length
 * leaks through timing. The credential becomes the request context's `actor`. The metrics token, when configured, opens `GET /metrics` and nothing else: a
 * monitoring system holding it can read counters but never change a partner.
 */
export const adminAuth = fp<{ adminToken: string; metricsToken?: string | undefined }>(
  async (app: FastifyInstance, { adminToken, metricsToken }) => {
    const expected = digest(adminToken);
    const scrape = metricsToken === undefined ? undefined : digest(metricsToken);
    app.addHook('onRequest', async (request) => {
      if (isConsoleAsset(request)) return;
      const bearer = BEARER_REGEXP.exec(request.headers.authorization ?? '')?.[1];
      const presented = bearer === undefined ? undefined : digest(bearer);
      if (presented !== undefined && timingSafeEqual(presented, expected)) {
        request.requestContext.actor = BOOTSTRAP;
        return;
      }
      if (presented !== undefined && scrape !== undefined && isMetricsScrape(request) && timingSafeEqual(presented, scrape)) {
        request.requestContext.actor = METRICS;
        return;
      }
      throw errors.adminUnauthorized();
    });
  },
  { name: 'admin-auth', fastify: '5.x', dependencies: ['error-handler', 'request-context'] },
);

/** Who acts with ADMIN_TOKEN: every right, audited as the bootstrap credential (as Keycloak's bootstrap admin). */
const BOOTSTRAP: Actor = { credential: 'bootstrap', id: 'bootstrap', name: 'bootstrap' };
/** Who acts with METRICS_TOKEN: reads GET /metrics only. */
const METRICS: Actor = { credential: 'metrics', id: 'metrics', name: 'metrics' };

/** Only the routes the console plugin marks, only to read them, and never anything under /admin/. */
function isConsoleAsset(request: FastifyRequest): boolean {
  return (
    request.routeOptions.config?.adminConsoleAsset === true &&
    (request.method === 'GET' || request.method === 'HEAD') &&
    !request.url.startsWith('/admin/')
  );
}

function isMetricsScrape(request: FastifyRequest): boolean {
  return request.routeOptions.config?.metricsScrape === true && (request.method === 'GET' || request.method === 'HEAD');
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}
