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
 * `partner_gateway_partner_credentials_ending{credential}`: partner credentials that stop working within 7 days,
 * by kind (`key`, `certificate`, `password`: the one a rotation replaced), counted when scraped: what
 * `credential.expiring` announces to the partners. Informational: a partner that rotated chose the end; one still
 * using the old credential will be refused once it passes (its request log says why). A failed count leaves the
 * last values.
 *
 * @example
 * ```ts
 * registerCredentialEndGauge(registry, () => countCredentialsEndingBetween(db, new Date(), new Date(Date.now() + 7 * DAY)));
 * ```
 */
export function registerCredentialEndGauge(registry: Registry, count: () => Promise<Record<string, number>>): void {
  registerCountedAtScrape(
    registry,
    'partner_gateway_partner_credentials_ending',
    'Partner credentials (a rotated key or API password, a certificate) that stop working within 7 days, by kind, counted at scrape.',
    count,
    'credential',
  );
}

/**
 * A gauge set from `count` at each scrape: one value, or one per value of `label` when `count` answers them by it.
 * A failed count leaves the last values, so the scrape still answers.
 */
function registerCountedAtScrape(registry: Registry, name: string, help: string, count: () => Promise<number | Record<string, number>>, label?: string): void {
  new Gauge({
    name,
    help,
    labelNames: label === undefined ? [] : [label],
    registers: [registry],
    async collect() {
      try {
        const counted = await count();
        if (typeof counted === 'number') this.set(counted);
        else for (const [value, number] of Object.entries(counted)) this.set({ [label!]: value }, number);
      } catch {
        // The database is unreachable: /readyz says so; the metrics page keeps answering with the last count.
      }
    },
  });
}
