import { Gauge, type Registry } from 'prom-client';

/** What the bank registry sync's gauges show, read from the runs every instance records. */
export interface BankSyncFigures {
  lastAttemptAt: Date | undefined;
  lastSuccessAt: Date | undefined;
  lastFailed: boolean;
  pending: number;
}

/**
 * The registry sync's health, read from the recorded runs when scraped (so every instance shows the same, whichever
 * ran the sync): `partner_gateway_bank_sync_last_attempt_timestamp_seconds`, `..._last_success_timestamp_seconds`,
 * `..._last_success_age_seconds` (alert when it passes twice BANKS_SYNC_INTERVAL), `..._last_attempt_failed` (1 when
 * the last run could not use its source) and `..._pending_changes` (1 while a held run waits for an operator). A
 * failed read keeps the last values.
 *
 * @example
 * ```ts
 * registerBankSyncGauges(registry, () => banks.sync.figures(), Date.now);
 * ```
 */
export function registerBankSyncGauges(registry: Registry, read: () => Promise<BankSyncFigures>, now: () => number): void {
  let figures: Promise<BankSyncFigures | undefined> | undefined;
  // The five gauges of one scrape share one read.
  const current = () => {
    figures ??= read()
      .catch(() => undefined)
      .finally(() => setImmediate(() => (figures = undefined)));
    return figures;
  };
  const seconds = (date: Date | undefined) => (date ? date.getTime() / 1000 : 0);
  const gauge = (name: string, help: string, value: (read: BankSyncFigures) => number) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      async collect() {
        const read = await current();
        if (read) this.set(value(read));
      },
    });
  gauge('partner_gateway_bank_sync_last_attempt_timestamp_seconds', 'When the last bank registry sync run finished (0: never).', (read) => seconds(read.lastAttemptAt));
  gauge('partner_gateway_bank_sync_last_success_timestamp_seconds', 'When the last sync run that read its source (applied, held or unchanged) finished (0: never).', (read) => seconds(read.lastSuccessAt));
  gauge('partner_gateway_bank_sync_last_success_age_seconds', 'Seconds since the last sync run that read its source (0: never ran).', (read) => (read.lastSuccessAt ? Math.max(0, (now() - read.lastSuccessAt.getTime()) / 1000) : 0));
  gauge('partner_gateway_bank_sync_last_attempt_failed', '1 when the last sync run could not fetch or read its source.', (read) => (read.lastFailed ? 1 : 0));
  gauge('partner_gateway_bank_sync_pending_changes', 'Held sync runs waiting for an operator to approve or reject them.', (read) => read.pending);
}
