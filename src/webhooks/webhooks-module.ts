import type { Kysely } from 'kysely';
import type { Config } from '../config.js';
import type { ChangeFeed } from '../db/change-feed.js';
import type { Database } from '../db/schema.js';
import { createKeySealer } from '../keys/master-key.js';
import type { WebhookFigures } from '../metrics/webhook-metrics.js';
import type { PartnerRepository } from '../partners/partner-repository.js';
import { createWebhookAdmin, type WebhookAdmin } from './webhook-admin.js';
import { createWebhookDispatcher, type WebhookDispatcher } from './webhook-dispatcher.js';
import { createWebhookEndpointRepository } from './webhook-endpoint-repository.js';
import { createWebhookOutboxRepository } from './webhook-outbox-repository.js';

export interface WebhooksModule {
  admin: WebhookAdmin;
  dispatcher: WebhookDispatcher;
  figures(): WebhookFigures;
  /** The outbox's finished events older than WEBHOOK_RETENTION_DAYS deleted (at most PURGE_BATCH a call); how many. */
  purge(): Promise<number>;
  close(): Promise<void>;
}

const DAY_MS = 86_400_000;
/** Events purged per call at most: the purge timer comes back for the rest, and no call holds a long transaction. */
const PURGE_BATCH = 500;

/**
 * Partners' webhooks, wired: the admin side, and a dispatcher that polls the outbox every WEBHOOK_POLL_MS and at
 * once when a bank list version is published (the change feed's `banks`, heard on every instance). The hook into
 * the bank list is that subscription alone: the events themselves are made from the versions table, so a version
 * published while no instance listened is announced at the next poll.
 */
export function createWebhooks(db: Kysely<Database>, feed: ChangeFeed, config: Config, partners: PartnerRepository, masterKey: Buffer, now: () => number, onError: (error: unknown) => void): WebhooksModule {
  const endpoints = createWebhookEndpointRepository(db);
  const outbox = createWebhookOutboxRepository(db);
  const sealer = createKeySealer(masterKey);
  const production = config.NODE_ENV === 'production';
  const dispatcher = createWebhookDispatcher(
    endpoints,
    outbox,
    sealer,
    { retryBaseMs: config.WEBHOOK_RETRY_BASE_MS, retryWindowMs: config.WEBHOOK_RETRY_WINDOW_SECONDS * 1000, timeoutMs: config.WEBHOOK_TIMEOUT_MS, production },
    now,
    onError,
  );
  feed.subscribe('banks', () => dispatcher.nudge());
  const timer = setInterval(() => void dispatcher.tick(), config.WEBHOOK_POLL_MS);
  timer.unref();
  return {
    admin: createWebhookAdmin(partners, endpoints, outbox, sealer, { production, overlapHours: config.WEBHOOK_ROTATION_OVERLAP_HOURS }, now, () => dispatcher.nudge()),
    dispatcher,
    figures: () => ({ ...dispatcher.figures(), disabledEndpoints: () => endpoints.countDisabled() }),
    purge: () => outbox.purgeFinished(new Date(now() - config.WEBHOOK_RETENTION_DAYS * DAY_MS), PURGE_BATCH),
    async close() {
      clearInterval(timer);
      await dispatcher.close();
    },
  };
}
