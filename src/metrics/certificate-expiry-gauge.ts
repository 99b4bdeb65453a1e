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
  registerCountedAtScrape(registry, 'partner_gateway_partner_certificates_expiring', 'Registered partner client certificates whose notAfter is within 30 days (expired ones included), counted at scrape.', count);
}

/**
 * `partner_gateway_partner_keys_ending`: registered partner keys whose overlap window (a self-service rotation) ends
 * within 7 days, counted when scraped. Informational: a partner that rotated chose the end; one still signing with
 * the old key will be refused once it passes (the request log says `client_assertion_key_unknown`).
 *
 * @example
 * ```ts
 * registerKeyEndGauge(registry, () => countKeysEndingBetween(db, new Date(), new Date(Date.now() + 7 * DAY)));
 * ```
 */
export function registerKeyEndGauge(registry: Registry, count: () => Promise<number>): void {
  registerCountedAtScrape(registry, 'partner_gateway_partner_keys_ending', 'Registered partner private_key_jwt keys whose rotation overlap window ends within 7 days, counted at scrape.', count);
}

/** A gauge set from `count` at each scrape; a failed count leaves the last value, so the scrape still answers. */
function registerCountedAtScrape(registry: Registry, name: string, help: string, count: () => Promise<number>): void {
  new Gauge({
    name,
    help,
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
