import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Tracing } from '../../telemetry/tracing.js';

/**
 * OpenTelemetry on a listener (OTEL_EXPORTER_OTLP_ENDPOINT set; the app does not register this plugin
 * otherwise, so an untraced gateway runs no tracing code per request): @fastify/otel's request span, then the
 * trace and span ids bound to the request's logger, so that every line logged for a traced request (its
 * `request` line, a refusal's warning, an error) names its trace. Registered before anything else of the app,
 * so that every route's handler is wrapped and the span exists when the other hooks run.
 */
export const tracing = fp<{ instrumentation: Tracing['instrumentation'] }>(
  async (app: FastifyInstance, { instrumentation }) => {
    await app.register(instrumentation.plugin());
    app.addHook('onRequest', (request, reply, done) => {
      const { span } = request.opentelemetry();
      if (span) {
        const { traceId, spanId } = span.spanContext();
        request.log = request.log.child({ traceId, spanId });
        reply.log = request.log;
      }
      done();
    });
  },
  { name: 'tracing', fastify: '5.x' },
);
