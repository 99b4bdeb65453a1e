import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Counter, Histogram, Registry } from 'prom-client';
import { registerRequestMetrics } from './request-metrics.js';

const BOUNDS = [0.001, 0.01, 0.1, 1];
const OBSERVED: Array<[string, string, string, number, number]> = [
  ['public', 'POST', '/partner/provider/sbp/banks/', 200, 0.0004],
  ['public', 'POST', '/partner/provider/sbp/banks/', 200, 0.001],
  ['public', 'POST', '/partner/provider/sbp/banks/', 401, 0.02],
  ['public', 'GET', 'unmatched', 404, 3],
  ['admin', 'GET', '/admin/v1/partners', 200, 0.05],
];

/** What prom-client's own Counter and Histogram write for the same requests. */
async function promClientText(): Promise<string> {
  const registry = new Registry();
  const requests = new Counter({ name: 'partner_gateway_http_requests_total', help: 'Requests answered, by listener, route template, method and status.', labelNames: ['listener', 'route', 'method', 'status'], registers: [registry] });
  const latency = new Histogram({
    name: 'partner_gateway_http_request_duration_seconds',
    help: 'Time from the first byte of a request to the end of its answer, by listener, route template and method.',
    labelNames: ['listener', 'route', 'method'],
    buckets: BOUNDS,
    registers: [registry],
  });
  for (const [listener, method, route, status, seconds] of OBSERVED) {
    requests.labels({ listener, route, method, status: String(status) }).inc();
    latency.labels({ listener, route, method }).observe(seconds);
  }
  return registry.metrics();
}

describe('request metrics', () => {
  it('when requests are observed, then the scrape says what prom-client counting them one by one says', async () => {
    const registry = new Registry();
    const observe = registerRequestMetrics(registry, BOUNDS);
    for (const request of OBSERVED) observe(...request);
    assert.equal(await registry.metrics(), await promClientText());
  });

  it('when scraped twice with requests in between, then the counter keeps counting from where it was', async () => {
    const registry = new Registry();
    const observe = registerRequestMetrics(registry, BOUNDS);
    observe('public', 'POST', '/r', 200, 0.002);
    await registry.metrics();
    observe('public', 'POST', '/r', 200, 0.002);
    const text = await registry.metrics();
    assert.match(text, /partner_gateway_http_requests_total\{listener="public",route="\/r",method="POST",status="200"\} 2/);
    assert.match(text, /partner_gateway_http_request_duration_seconds_count\{listener="public",route="\/r",method="POST"\} 2/);
    const json = await registry.getMetricsAsJSON();
    const histogram = json.find((metric) => metric.name === 'partner_gateway_http_request_duration_seconds')!;
    assert.deepEqual(histogram.values.find((value) => value.labels.le === 0.01)?.labels, { le: 0.01, listener: 'public', route: '/r', method: 'POST' });
  });
});
