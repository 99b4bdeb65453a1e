import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { GatewayMetrics, Listener } from '../../metrics/gateway-metrics.js';

/** The `route` label of requests no route matched: one value, so that scanners cannot grow the label set. */
export const UNMATCHED_ROUTE = 'unmatched';

/**
 * Records every answered request in the gateway's metrics: listener, the route's template (never the URL,
 * whose query may carry a partnerPassword), method, status and duration, and the reason of a refused
 * authentication.
 */
export const httpMetrics = fp<{ metrics: GatewayMetrics; listener: Listener }>(
  async (app: FastifyInstance, { metrics, listener }) => {
    app.addHook('onResponse', (request, reply, done) => {
      const route = request.routeOptions.url ?? UNMATCHED_ROUTE;
      metrics.observeRequest(listener, request.method, route, reply.statusCode, reply.elapsedTime / 1000);
      if (request.authFailure) metrics.countAuthFailure(listener, request.authFailure);
      done();
    });
  },
  { name: 'http-metrics', fastify: '5.x', dependencies: ['request-log'] },
);
