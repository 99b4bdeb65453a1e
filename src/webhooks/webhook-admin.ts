import { randomUUID } from 'node:crypto';
import type { CreateWebhookBody, ReplayWebhooksBody, RotateWebhookBody, WebhookAttemptView, WebhookEndpointCreated, WebhookEndpointView } from '@partner-gateway/contract/admin-webhooks';
import { errors } from '../errors.js';
import type { KeySealer } from '../keys/master-key.js';
import { PublicFetchError } from '../net/public-fetch-error.js';
import { checkPublicUrl } from '../net/public-url.js';
import type { PartnerRepository } from '../partners/partner-repository.js';
import type { WebhookEndpoint, WebhookEndpointRepository } from './webhook-endpoint-repository.js';
import type { WebhookOutboxRepository } from './webhook-outbox-repository.js';
import { newSigningMaterial } from './webhook-signing.js';

/** Endpoints a partner may register. */
export const MAX_WEBHOOKS_PER_PARTNER = 10;

/**
 * A partner's webhook endpoints on the admin API. Creating and rotating answer the new signing material once
 * (the `whsec_` secret, or the `whpk_` public key); it is stored sealed with MASTER_KEY and never shown again.
 *
 * @example
 * ```ts
 * const { endpoint, secret } = await webhooks.create('acme', { url: 'https://acme.example/hooks', scheme: 'v1' });
 * await webhooks.rotate('acme', endpoint.id, {}); // both signatures for 24 h
 * ```
 */
export interface WebhookAdmin {
  list(login: string): Promise<WebhookEndpointView[]>;
  create(login: string, body: CreateWebhookBody): Promise<WebhookEndpointCreated>;
  /** The endpoint removed (404 when it is not the partner's). */
  remove(login: string, id: string): Promise<WebhookEndpointView>;
  /** New material; the previous one signs too for `overlapHours`. A disabled endpoint is enabled again. */
  rotate(login: string, id: string, body: RotateWebhookBody): Promise<WebhookEndpointCreated & { before: WebhookEndpointView }>;
  attempts(login: string, id: string, limit: number): Promise<WebhookAttemptView[]>;
  replay(login: string, id: string, body: ReplayWebhooksBody): Promise<number>;
}

export interface WebhookAdminSettings {
  production: boolean;
  overlapHours: number;
}

export function createWebhookAdmin(
  partners: PartnerRepository,
  endpoints: WebhookEndpointRepository,
  outbox: WebhookOutboxRepository,
  sealer: KeySealer,
  settings: WebhookAdminSettings,
  now: () => number,
  onEnqueued: () => void,
): WebhookAdmin {
  async function partnerId(login: string): Promise<string> {
    const partner = await partners.findByLogin(login);
    if (!partner) throw errors.partnerNotFound(login);
    return partner.id;
  }
  async function endpointOf(login: string, id: string): Promise<WebhookEndpoint> {
    const owner = await partnerId(login);
    const endpoint = await endpoints.get(id);
    if (!endpoint || endpoint.partnerId !== owner) throw errors.webhookNotFound(id);
    return endpoint;
  }
  function checkedUrl(url: string): string {
    try {
      return checkPublicUrl(url, settings.production).href;
    } catch (error) {
      if (error instanceof PublicFetchError) throw errors.webhookUrlRefused(error.message);
      throw error;
    }
  }
  return {
    async list(login) {
      return (await endpoints.ofPartner(await partnerId(login))).map(toWebhookEndpointView);
    },
    async create(login, body) {
      const url = checkedUrl(body.url);
      const owner = await partnerId(login);
      const id = randomUUID();
      const fresh = newSigningMaterial(body.scheme ?? 'v1a');
      const at = new Date(now());
      const endpoint = await endpoints.insert({
        id,
        partnerId: owner,
        url,
        scheme: fresh.material.scheme,
        secretSealed: sealer.seal(id, { ...fresh.material }),
        publicKey: fresh.publicKey,
        createdAt: at,
        updatedAt: at,
      }, MAX_WEBHOOKS_PER_PARTNER);
      if (endpoint === 'full') throw errors.webhookLimit(MAX_WEBHOOKS_PER_PARTNER);
      return { endpoint: toWebhookEndpointView(endpoint), secret: fresh.secret };
    },
    async remove(login, id) {
      const endpoint = await endpointOf(login, id);
      await endpoints.remove(endpoint.id);
      return toWebhookEndpointView(endpoint);
    },
    async rotate(login, id, body) {
      const before = await endpointOf(login, id);
      const fresh = newSigningMaterial(body.scheme ?? before.scheme);
      const at = now();
      const overlapMs = (body.overlapHours ?? settings.overlapHours) * 3_600_000;
      const updated = await endpoints.update(id, {
        scheme: fresh.material.scheme,
        secretSealed: sealer.seal(id, { ...fresh.material }),
        publicKey: fresh.publicKey,
        previousScheme: overlapMs > 0 ? before.scheme : null,
        previousSecretSealed: overlapMs > 0 ? before.secretSealed : null,
        previousUntil: overlapMs > 0 ? new Date(at + overlapMs) : null,
        status: 'enabled',
        failingSince: null,
        disabledAt: null,
        disabledReason: null,
        updatedAt: new Date(at),
      });
      if (!updated) throw errors.webhookNotFound(id);
      return { before: toWebhookEndpointView(before), endpoint: toWebhookEndpointView(updated), secret: fresh.secret };
    },
    async attempts(login, id, limit) {
      const endpoint = await endpointOf(login, id);
      return (await outbox.attempts(endpoint.id, limit)).map((attempt) => ({
        eventId: attempt.eventId,
        deliveryId: attempt.deliveryId,
        at: attempt.at.toISOString(),
        outcome: attempt.outcome,
        statusCode: attempt.statusCode,
        error: attempt.error,
        durationMs: attempt.durationMs,
      }));
    },
    async replay(login, id, body) {
      const endpoint = await endpointOf(login, id);
      const queued = await outbox.replay(endpoint.id, 'eventId' in body ? { eventId: body.eventId } : { since: new Date(body.since) }, new Date(now()));
      if (queued === 0 && 'eventId' in body) throw errors.webhookEventNotFound(body.eventId);
      if (queued > 0) onEnqueued();
      return queued;
    },
  };
}

/** An endpoint as the admin API shows it: never its signing material (the v1a public key is public). */
export function toWebhookEndpointView(endpoint: WebhookEndpoint): WebhookEndpointView {
  return {
    id: endpoint.id,
    url: endpoint.url,
    scheme: endpoint.scheme,
    publicKey: endpoint.publicKey,
    status: endpoint.status,
    previousUntil: endpoint.previousUntil?.toISOString() ?? null,
    failingSince: endpoint.failingSince?.toISOString() ?? null,
    disabledAt: endpoint.disabledAt?.toISOString() ?? null,
    disabledReason: endpoint.disabledReason,
    createdAt: endpoint.createdAt.toISOString(),
  };
}
