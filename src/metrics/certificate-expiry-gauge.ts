import { Gauge, type Registry } from 'prom-client';

/**
 * `partner_gateway_partner_certificates_expiring`: registered partner certificates expiring within 30 days
 * (CERTIFICATE_EXPIRY_WARNING_DAYS, or already expired), counted when scraped. Alert on it above 0: a partner whose
 * certificate expires can no longer get a token. A failed count leaves the last value (the scrape still answers).
 *
 * @example
 * ```ts
 * registerCertificateExpiryGauge(registry, () => countCertificatesExpiringBefore(db, new Date(Date.now() + 30 * DAY)));
 * ```
 */
export function registerCertificateExpiryGauge(registry: Registry, count: () => Promise<number>): void {
  new Gauge({
    name: 'partner_gateway_partner_certificates_expiring',
    help: 'Registered partner client certificates whose notAfter is within 30 days (expired ones included), counted at scrape.',
    registers: [registry],
    async collect() {
      try {
        this.set(await count());
      } catch {
        // The database is unreachable: /readyz says so; the metrics page keeps answering with the last count.
      }
    },
  });
}
