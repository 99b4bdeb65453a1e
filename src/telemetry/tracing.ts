import { trace, type Context } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { NodeSDK, resources } from '@opentelemetry/sdk-node';
import { BatchSpanProcessor, type ReadableSpan, type Span, type SpanProcessor } from '@opentelemetry/sdk-trace';
import { FastifyOtelInstrumentation } from '@fastify/otel';
import { HEALTH_PATH, READY_PATH } from '@partner-gateway/contract/paths';
import type { FastifyRequest } from 'fastify';
import { GATEWAY_VERSION } from '../version.js';

/** The span attribute naming the request (the `X-Request-Id` answered, `reqId` in the log). */
export const REQUEST_ID_ATTRIBUTE = 'partner_gateway.request_id';

/** Probes and scrapes: a span every few seconds from every kubelet and Prometheus would bury the calls. */
const UNTRACED_PATHS = new Set([HEALTH_PATH, READY_PATH, '/metrics']);

export interface Tracing {
  /** The Fastify instrumentation each listener registers (see the http tracing plugin). */
  instrumentation: FastifyOtelInstrumentation;
  /** Sends the spans still waiting, then stops. */
  shutdown(): Promise<void>;
}

/**
 * Starts OpenTelemetry tracing: W3C `traceparent` (and baggage) read from each request and continued, one
 * server span per request (`POST /partner/{segment}/sbp/banks/`) with its handler's span under it, every span
 * carrying the request id, sent in batches as OTLP/HTTP JSON to `<endpoint>/v1/traces`. Only `src/main.ts`
 * calls it, and only when OTEL_EXPORTER_OTLP_ENDPOINT is set: otherwise nothing of OpenTelemetry is even loaded.
 * The SDK also reads its own standard settings (OTEL_SERVICE_NAME, OTEL_RESOURCE_ATTRIBUTES,
 * OTEL_EXPORTER_OTLP_HEADERS, OTEL_TRACES_SAMPLER, OTEL_BSP_*), as every OpenTelemetry SDK does.
 *
 * @example
 * ```ts
 * const tracing = config.OTEL_EXPORTER_OTLP_ENDPOINT ? startTracing(config.OTEL_EXPORTER_OTLP_ENDPOINT) : undefined;
 * ```
 */
export function startTracing(endpoint: string): Tracing {
  const instrumentation = new FastifyOtelInstrumentation({
    // A request span and its handler's; a span per hook (a dozen per call) would say little and cost more.
    instrumentHooks: false,
    ignorePaths: (route) => UNTRACED_PATHS.has(pathOf(route.url ?? '')),
    requestHook: (span, request) => nameRequestSpan(span, request as FastifyRequest),
  });
  const sdk = new NodeSDK({
    // OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES, read by the SDK, override these.
    resource: resources.resourceFromAttributes({ 'service.name': 'partner-gateway', 'service.version': GATEWAY_VERSION }),
    spanProcessors: [requestIdOnEverySpan, new BatchSpanProcessor({ exporter: new OTLPTraceExporter({ url: `${endpoint.replace(/\/+$/, '')}/v1/traces` }) })],
    instrumentations: [instrumentation],
  });
  sdk.start();
  return { instrumentation, shutdown: () => sdk.shutdown() };
}

/**
 * The request span as the HTTP semantic conventions name it (`{method} {route}`, the route's template), its
 * `url.path` without the query (which may carry a partnerPassword) and the request id.
 */
function nameRequestSpan(span: { updateName(name: string): unknown; setAttribute(key: string, value: string): unknown }, request: FastifyRequest): void {
  const route = request.routeOptions.url;
  if (route !== undefined) span.updateName(`${request.method} ${route}`);
  span.setAttribute('url.path', pathOf(request.url));
  span.setAttribute(REQUEST_ID_ATTRIBUTE, request.id);
}

/** Every span started under a request's span gets its request id too, however deep. */
const requestIdOnEverySpan: SpanProcessor = {
  onStart(span: Span, parentContext: Context) {
    const parent = trace.getSpan(parentContext) as Partial<ReadableSpan> | undefined;
    const requestId = parent?.attributes?.[REQUEST_ID_ATTRIBUTE];
    if (typeof requestId === 'string') span.setAttribute(REQUEST_ID_ATTRIBUTE, requestId);
  },
  onEnd() {},
  forceFlush: () => Promise.resolve(),
  shutdown: () => Promise.resolve(),
};

function pathOf(url: string): string {
  const query = url.indexOf('?');
  return query === -1 ? url : url.slice(0, query);
}
