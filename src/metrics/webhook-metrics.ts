import { Counter, Gauge, type Registry } from 'prom-client';

/** What this instance's webhook dispatcher counted since it started, and the endpoints disabled now (all instances). */
export interface WebhookFigures {
  delivered: number;
  failed: number;
  endpointsDisabled: number;
  disabledEndpoints: () => Promise<number>;
}

/**
 * `partner_gateway_webhook_attempts_total{outcome}` (delivered, failed: attempts this instance made),
 * `partner_gateway_webhook_endpoints_disabled_total` (endpoints this instance disabled after failing for the whole
 * retry window) and `partner_gateway_webhook_endpoints_disabled` (disabled endpoints now, read from the database).
 */
export function registerWebhookMetrics(registry: Registry, read: () => WebhookFigures): void {
  new Counter({
    name: 'partner_gateway_webhook_attempts_total',
    help: 'Webhook delivery attempts this instance made, by outcome.',
    labelNames: ['outcome'] as const,
    registers: [registry],
    collect() {
      const figures = read();
      this.reset();
      this.inc({ outcome: 'delivered' }, figures.delivered);
      this.inc({ outcome: 'failed' }, figures.failed);
    },
  });
  new Counter({
    name: 'partner_gateway_webhook_endpoints_disabled_total',
    help: 'Webhook endpoints this instance disabled because they kept failing for the whole retry window.',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(read().endpointsDisabled);
    },
  });
  new Gauge({
    name: 'partner_gateway_webhook_endpoints_disabled',
    help: 'Webhook endpoints disabled now (they stop receiving events until an operator rotates or recreates them).',
    registers: [registry],
    async collect() {
      try {
        this.set(await read().disabledEndpoints());
      } catch {
        // A failed read keeps the last value.
      }
    },
  });
}
