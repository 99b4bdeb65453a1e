import type { FastifyInstance } from 'fastify';
import type { GatewayMetrics } from '../../../metrics/gateway-metrics.js';

/**
 * `GET /metrics`: the Prometheus text format, on the admin listener only. Scraped with the admin token or
 * METRICS_TOKEN (see admin-auth), so that a Prometheus server never needs to hold the admin token.
 */
export async function adminMetricsRoutes(app: FastifyInstance, { metrics }: { metrics: GatewayMetrics }): Promise<void> {
  app.get('/metrics', { config: { metricsScrape: true, permission: 'read' }, schema: { hide: true } }, async (_request, reply) => {
    reply.header('content-type', metrics.contentType);
    return metrics.render();
  });
}
