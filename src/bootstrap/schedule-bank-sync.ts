import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { Gateway } from '../gateway.js';

/**
 * The registry sync's schedule (BANKS_SYNC_URL): a check at start and then every tenth of BANKS_SYNC_INTERVAL (at
 * most every 5 minutes); each check runs a sync only when one is due and no other instance is running one, so
 * that every instance may keep the schedule and the database decides.
 */
export function scheduleBankSync(gateway: Pick<Gateway, 'runtime'>, config: Config, logger: Pick<Logger, 'error'>): { stop(): Promise<void> } {
  if (config.BANKS_SYNC_URL === undefined) return { stop: async () => {} };
  let running: Promise<unknown> | undefined;
  const check = () => {
    running ??= gateway.runtime
      .syncBanksIfDue()
      .catch((error: unknown) => logger.error({ err: error }, 'bank registry sync check failed; tried again at the next check'))
      .finally(() => {
        running = undefined;
      });
  };
  check();
  const timer = setInterval(check, Math.min(config.BANKS_SYNC_INTERVAL * 100, 300_000));
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
