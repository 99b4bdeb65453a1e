import { Counter, type Metric, type Registry } from 'prom-client';

/** One answered request's figures, as the request hook records them. */
export type ObserveRequest = (listener: string, method: string, route: string, status: number, seconds: number) => void;

interface StatusCell {
  labels: { listener: string; route: string; method: string; status: string };
  /** Requests counted since the last scrape, added to the counter when it is read. */
  pending: number;
}

interface LatencyCell {
  labels: { listener: string; route: string; method: string };
  sum: number;
  count: number;
  /** Observations per bucket (not cumulative), in LATENCY bounds' order; the last is above every bound. */
  buckets: Float64Array;
  statuses: Map<number, StatusCell>;
}

/**
 * `partner_gateway_http_requests_total` and `partner_gateway_http_request_duration_seconds`, by listener, route
 * template, method (and status), counted in plain numbers per request and handed to the registry when scraped.
 * prom-client's own `inc` and `observe`, label children included, check the labels, build a key string from them
 * and look it up on every call (a bearer call's metrics cost more than its authentication, issue 35); here a
 * request costs four map lookups on strings it already holds and three additions. The text scraped is what
 * prom-client's Counter and Histogram write: the counter is one (its deltas added at each scrape), the histogram
 * an object giving the registry the same values a prom-client Histogram gives.
 */
export function registerRequestMetrics(registry: Registry, bounds: readonly number[]): ObserveRequest {
  const cells = new Map<string, Map<string, Map<string, LatencyCell>>>();
  const each = function* (): Generator<LatencyCell> {
    for (const byListener of cells.values()) for (const byMethod of byListener.values()) yield* byMethod.values();
  };
  new Counter({
    name: 'partner_gateway_http_requests_total',
    help: 'Requests answered, by listener, route template, method and status.',
    labelNames: ['listener', 'route', 'method', 'status'] as const,
    registers: [registry],
    collect() {
      for (const cell of each()) {
        for (const status of cell.statuses.values()) {
          if (status.pending === 0) continue;
          this.inc(status.labels, status.pending);
          status.pending = 0;
        }
      }
    },
  });
  const name = 'partner_gateway_http_request_duration_seconds';
  /** The values of one cell as prom-client's Histogram lists them: bucket label first, the cell's labels shared. */
  const valuesOf = (cell: LatencyCell) => {
    let cumulative = 0;
    const buckets = bounds.map((le, index) => ({ labels: { le }, sharedLabels: cell.labels, value: (cumulative += cell.buckets[index]!), metricName: `${name}_bucket` }));
    return [
      ...buckets,
      { labels: { le: '+Inf' }, sharedLabels: cell.labels, value: cell.count, metricName: `${name}_bucket` },
      { labels: {}, sharedLabels: cell.labels, value: cell.sum, metricName: `${name}_sum` },
      { labels: {}, sharedLabels: cell.labels, value: cell.count, metricName: `${name}_count` },
    ];
  };
  const header = { name, help: 'Time from the first byte of a request to the end of its answer, by listener, route template and method.', type: 'histogram', aggregator: 'sum' };
  const histogram = {
    ...header,
    getForPromString: async () => ({ ...header, values: [...each()].flatMap(valuesOf) }),
    // As prom-client's get(): each value's labels with the shared ones merged in.
    get: async () => ({ ...header, values: [...each()].flatMap(valuesOf).map(({ labels, sharedLabels, ...value }) => ({ ...value, labels: { ...labels, ...sharedLabels } })) }),
    reset: () => cells.clear(),
  };
  registry.registerMetric(histogram as unknown as Metric);

  return (listener, method, route, status, seconds) => {
    const cell = latencyCell(cells, listener, method, route, bounds.length);
    cell.sum += seconds;
    cell.count += 1;
    let index = 0;
    while (index < bounds.length && seconds > bounds[index]!) index++;
    cell.buckets[index]! += 1;
    let counted = cell.statuses.get(status);
    if (!counted) {
      counted = { labels: { ...cell.labels, status: String(status) }, pending: 0 };
      cell.statuses.set(status, counted);
    }
    counted.pending += 1;
  };
}

/**
 * `partner_gateway_oauth_token_requests_total`, by client authentication method and outcome: here beside the
 * request metrics, so that a grant's metrics are one file's (one more file on the token path was one too many).
 */
export function registerTokenRequestCounter(registry: Registry): (method: string, outcome: 'issued' | 'refused') => void {
  const counter = new Counter({
    name: 'partner_gateway_oauth_token_requests_total',
    help: 'OAuth token requests, by client authentication method (private_key_jwt, client_secret_basic, client_secret_post, none) and outcome (issued, refused).',
    labelNames: ['method', 'outcome'] as const,
    registers: [registry],
  });
  return (method, outcome) => counter.inc({ method, outcome });
}

/** The cell of a route, listener and method, made on first use (routes are templates, methods and listeners few). */
function latencyCell(cells: Map<string, Map<string, Map<string, LatencyCell>>>, listener: string, method: string, route: string, bucketCount: number): LatencyCell {
  let byListener = cells.get(route);
  if (!byListener) cells.set(route, (byListener = new Map()));
  let byMethod = byListener.get(listener);
  if (!byMethod) byListener.set(listener, (byMethod = new Map()));
  let cell = byMethod.get(method);
  if (!cell) byMethod.set(method, (cell = { labels: { listener, route, method }, sum: 0, count: 0, buckets: new Float64Array(bucketCount + 1), statuses: new Map() }));
  return cell;
}
