import type { Logger } from 'pino';
import type { Config } from '../config.js';
import type { Gateway } from '../gateway.js';

/** A schedule that can be stopped, waiting for the check under way. */
export interface Schedule {
  stop(): Promise<void>;
}

/**
 * The registry sync's schedule (BANKS_SYNC_URL): a check at start and then every tenth of BANKS_SYNC_INTERVAL (at
 * most every 5 minutes); each check runs a sync only when one is due and no other instance is running one, so
 * that every instance may keep the schedule and the database decides.
 */
export function scheduleBankSync(gateway: Pick<Gateway, 'runtime'>, config: Config, logger: Pick<Logger, 'error'>): Schedule {
  if (config.BANKS_SYNC_URL === undefined) return { stop: async () => {} };
  return scheduleChecks(() => gateway.runtime.syncBanksIfDue(), config.BANKS_SYNC_INTERVAL, 'bank registry sync', logger);
}

/** The participant list sync's schedule (BANKS_PARTICIPANTS_URL, BANKS_PARTICIPANTS_SYNC_INTERVAL): the same rules. */
export function scheduleParticipantsSync(gateway: Pick<Gateway, 'runtime'>, config: Config, logger: Pick<Logger, 'error'>): Schedule {
  if (config.BANKS_PARTICIPANTS_URL === undefined) return { stop: async () => {} };
  return scheduleChecks(() => gateway.runtime.syncParticipantsIfDue(), config.BANKS_PARTICIPANTS_SYNC_INTERVAL, 'participant list sync', logger);
}

function scheduleChecks(checkDue: () => Promise<unknown>, intervalSeconds: number, what: string, logger: Pick<Logger, 'error'>): Schedule {
  let running: Promise<unknown> | undefined;
  const check = () => {
    running ??= checkDue()
      .catch((error: unknown) => logger.error({ err: error }, `${what} check failed; tried again at the next check`))
      .finally(() => {
        running = undefined;
      });
  };
  check();
  const timer = setInterval(check, Math.min(intervalSeconds * 100, 300_000));
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
