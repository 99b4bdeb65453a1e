import { randomUUID } from 'node:crypto';
import { KEY_END_WARNING_DAYS } from '@partner-gateway/contract/self-service';
import { WEBHOOK_HEADERS } from '@partner-gateway/contract/webhook-events';
import type { KeySealer } from '../keys/master-key.js';
import { fetchPublicResource } from '../net/fetch-public-resource.js';
import { PublicFetchError } from '../net/public-fetch-error.js';
import type { WebhookEndpoint, WebhookEndpointRepository } from './webhook-endpoint-repository.js';
import type { AttemptResult, WebhookDelivery, WebhookOutboxRepository } from './webhook-outbox-repository.js';
import { signatureHeader, type SigningMaterial } from './webhook-signing.js';

export interface DispatcherSettings {
  /** First retry after this many ms, doubling each time (at most 6 h apart). */
  retryBaseMs: number;
  /** A delivery is given up this long after it was queued; an endpoint failing that long is disabled. */
  retryWindowMs: number;
  timeoutMs: number;
  /** Production: https only, no private addresses (the jwksUri fetch rules). */
  production: boolean;
}

export interface WebhookDispatcher {
  /**
   * One pass: new list versions made into events, partners' credentials ending within 7 days too (at most once a
   * minute), then every due delivery attempted (leased, so once across instances).
   */
  tick(): Promise<void>;
  /** A tick soon (a bank list version was published). */
  nudge(): void;
  figures(): { delivered: number; failed: number; endpointsDisabled: number };
  close(): Promise<void>;
}

const MAX_STEP_MS = 6 * 3_600_000;
/** How often an instance looks for credentials ending soon: an end is announced within a minute of coming in reach. */
const CREDENTIAL_SCAN_MS = 60_000;
const DAY_MS = 86_400_000;
const BATCH = 10;
/** The most an answer's body is read (it is discarded): a receiver cannot make the gateway read much. */
const MAX_ANSWER_BYTES = 64 * 1024;

/**
 * Delivers the outbox. Every instance runs one; a due row is leased by one of them (FOR UPDATE SKIP LOCKED and a
 * lease that outlasts the request), and settled only by the instance that holds it, so each delivery is sent once
 * while the receiver answers in time. A failed attempt is tried again after retryBaseMs, 2×, 4×... until
 * retryWindowMs after it was queued; an endpoint that failed for the whole window is disabled.
 */
export function createWebhookDispatcher(
  endpoints: WebhookEndpointRepository,
  outbox: WebhookOutboxRepository,
  sealer: KeySealer,
  settings: DispatcherSettings,
  now: () => number,
  onError: (error: unknown) => void,
): WebhookDispatcher {
  const instance = randomUUID();
  const counts = { delivered: 0, failed: 0, endpointsDisabled: 0 };
  let running: Promise<void> | undefined;
  let again = false;
  let closed = false;
  let credentialsScannedAt = Number.NEGATIVE_INFINITY;

  function materials(endpoint: WebhookEndpoint, at: number): SigningMaterial[] {
    const open = (sealed: string) => sealer.open(endpoint.id, sealed) as unknown as SigningMaterial;
    const list = [open(endpoint.secretSealed)];
    if (endpoint.previousSecretSealed && endpoint.previousUntil && endpoint.previousUntil.getTime() > at) list.push(open(endpoint.previousSecretSealed));
    return list;
  }

  async function attempt(delivery: WebhookDelivery): Promise<void> {
    const endpoint = await endpoints.get(delivery.endpointId);
    const event = await outbox.event(delivery.eventId);
    const started = now();
    let statusCode: number | null = null;
    let error: string | null = null;
    if (!endpoint || !event || endpoint.status !== 'enabled') error = 'the endpoint is disabled';
    else {
      const timestamp = Math.floor(started / 1000);
      try {
        const answer = await fetchPublicResource(endpoint.url, {
          method: 'POST',
          body: event.body,
          headers: {
            'content-type': 'application/json',
            [WEBHOOK_HEADERS.id]: event.id,
            [WEBHOOK_HEADERS.timestamp]: String(timestamp),
            [WEBHOOK_HEADERS.signature]: signatureHeader(event.id, timestamp, event.body, materials(endpoint, started)),
          },
          maxBytes: MAX_ANSWER_BYTES,
          timeoutMs: settings.timeoutMs,
          production: settings.production,
        });
        statusCode = answer.status;
      } catch (caught) {
        // PublicFetchError's messages name no address and no secret; anything else is the gateway's own fault.
        if (caught instanceof PublicFetchError) {
          statusCode = caught.status ?? null;
          error = caught.message;
        } else {
          onError(caught);
          error = 'the request could not be made';
        }
      }
    }
    const at = now();
    const result = resultOf(delivery, error, at);
    const settled = await outbox.settle(
      delivery,
      instance,
      { deliveryId: delivery.id, endpointId: delivery.endpointId, eventId: delivery.eventId, at: new Date(at), outcome: error ? 'failed' : 'delivered', statusCode, error, durationMs: Math.max(0, at - started) },
      result,
    );
    if (!settled || !endpoint) return;
    counts[error ? 'failed' : 'delivered'] += 1;
    if (!error) {
      if (endpoint.failingSince) await endpoints.update(endpoint.id, { failingSince: null, updatedAt: new Date(at) });
      return;
    }
    const failingSince = endpoint.failingSince ?? new Date(at);
    if (!endpoint.failingSince) await endpoints.update(endpoint.id, { failingSince, updatedAt: new Date(at) });
    // Disabled once a delivery is given up (every attempt failed until its retry window ended) or the endpoint has
    // failed for a whole window; a single failing event, whose last retry comes before its window ends, counts.
    if (endpoint.status === 'enabled' && (result.outcome === 'failed' || at - failingSince.getTime() >= settings.retryWindowMs)) {
      const reason = `failed every attempt for ${Math.round(settings.retryWindowMs / 1000)} s; last: ${error}`;
      await endpoints.update(endpoint.id, { status: 'disabled', disabledAt: new Date(at), disabledReason: reason, updatedAt: new Date(at) });
      await outbox.abandonPending(endpoint.id, new Date(at), 'the endpoint was disabled');
      counts.endpointsDisabled += 1;
    }
  }

  function resultOf(delivery: WebhookDelivery, error: string | null, at: number): AttemptResult {
    if (!error) return { outcome: 'delivered' };
    const step = Math.min(MAX_STEP_MS, settings.retryBaseMs * 2 ** delivery.attempts);
    const retryAt = at + step;
    if (retryAt - delivery.createdAt.getTime() > settings.retryWindowMs) return { outcome: 'failed', error };
    return { outcome: 'retry', retryAt: new Date(retryAt), error };
  }

  async function pass(): Promise<void> {
    await outbox.enqueueNewVersions(new Date(now()));
    const scanAt = now();
    if (scanAt - credentialsScannedAt >= CREDENTIAL_SCAN_MS || scanAt < credentialsScannedAt) {
      credentialsScannedAt = scanAt;
      await outbox.enqueueCredentialsEnding(new Date(scanAt), new Date(scanAt + KEY_END_WARNING_DAYS * DAY_MS));
    }
    for (let round = 0; round < 100 && !closed; round++) {
      const at = now();
      const due = await outbox.claim(instance, new Date(at), new Date(at + settings.timeoutMs + 30_000), BATCH);
      if (due.length === 0) return;
      await Promise.all(due.map((delivery) => attempt(delivery).catch(onError)));
    }
  }

  const dispatcher: WebhookDispatcher = {
    tick() {
      if (running) {
        again = true;
        return running;
      }
      running = (async () => {
        try {
          do {
            again = false;
            await pass().catch(onError);
          } while (again && !closed);
        } finally {
          running = undefined;
        }
      })();
      return running;
    },
    nudge() {
      if (!closed) setImmediate(() => void dispatcher.tick());
    },
    figures: () => ({ ...counts }),
    async close() {
      closed = true;
      await running;
    },
  };
  return dispatcher;
}
