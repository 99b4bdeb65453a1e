import { adminEndpoint } from './admin-endpoint.js';
import { LoginParams } from './admin-partners.js';
import {
  CreateWebhookBody,
  ReplayWebhooksBody,
  ReplayWebhooksResult,
  RotateWebhookBody,
  WebhookAttemptList,
  WebhookAttemptQuery,
  WebhookEndpointCreated,
  WebhookEndpointList,
  WebhookEndpointParams,
} from './admin-webhooks.js';
import { ADMIN_PARTNER_WEBHOOK_ATTEMPTS_PATH, ADMIN_PARTNER_WEBHOOK_PATH, ADMIN_PARTNER_WEBHOOK_REPLAY_PATH, ADMIN_PARTNER_WEBHOOK_ROTATE_PATH, ADMIN_PARTNER_WEBHOOKS_PATH } from './paths.js';

const tags = ['Partners'];
const AT_ONCE = 'it answers the signing material once, which a proposal would show to the approver; an endpoint gives nobody access to the gateway';

/**
 * A partner's webhook endpoints (docs/webhooks.md): the partner sub-resource pattern for a collection. Creating and
 * rotating answer the signing material once; the audit entry keeps the endpoint's public view only.
 *
 * @example
 * ```ts
 * const { endpoint, secret } = await admin.webhooks.create('acme', { url: 'https://acme.example/hooks', scheme: 'v1' });
 * await admin.webhooks.replay('acme', endpoint.id, { since: '2026-11-27T00:00:00Z' });
 * ```
 */
export const WEBHOOK_ENDPOINTS = {
  list: adminEndpoint({
    method: 'GET',
    path: ADMIN_PARTNER_WEBHOOKS_PATH,
    operationId: 'listPartnerWebhooks',
    tags,
    summary: "A partner's webhook endpoints",
    params: LoginParams,
    status: 200,
    answer: WebhookEndpointList,
    permission: 'read',
    cli: 'partner webhooks',
    send: (login: string) => ({ params: { login } }),
  }),
  create: adminEndpoint({
    method: 'POST',
    path: ADMIN_PARTNER_WEBHOOKS_PATH,
    operationId: 'createPartnerWebhook',
    tags,
    summary: 'Register a webhook endpoint for a partner (sbp_banks.updated events, Standard Webhooks format)',
    description:
      'Signed with ed25519 (`v1a`, the default: the answer carries the `whpk_` public key) or HMAC-SHA256 (`v1`: the answer carries the `whsec_` secret, shown this once). ' +
      '422 `webhook_url_refused` for a URL that is not https or names a private address (in production), 422 `webhook_limit` beyond 10 endpoints.',
    params: LoginParams,
    body: CreateWebhookBody,
    status: 201,
    answer: WebhookEndpointCreated,
    permission: 'partners.write',
    audit: 'partner.webhook.create',
    uncheckedBecause: AT_ONCE,
    cli: 'partner add-webhook',
    send: (login: string, body: CreateWebhookBody) => ({ params: { login }, body }),
  }),
  remove: adminEndpoint({
    method: 'DELETE',
    path: ADMIN_PARTNER_WEBHOOK_PATH,
    operationId: 'deletePartnerWebhook',
    tags,
    summary: 'Remove a webhook endpoint (its queued deliveries and log go with it)',
    params: WebhookEndpointParams,
    status: 204,
    answer: { type: 'null', description: 'Removed' },
    permission: 'partners.write',
    audit: 'partner.webhook.delete',
    uncheckedBecause: 'an endpoint gives nobody access to the gateway; stopping deliveries must never wait',
    cli: 'partner delete-webhook',
    send: (login: string, id: string) => ({ params: { login, id } }),
  }),
  rotate: adminEndpoint({
    method: 'POST',
    path: ADMIN_PARTNER_WEBHOOK_ROTATE_PATH,
    operationId: 'rotatePartnerWebhook',
    tags,
    summary: "Rotate a webhook endpoint's signing material; the previous one signs too for the overlap (default 24 h)",
    description: 'Deliveries during the overlap carry both signatures. Rotating a disabled endpoint enables it again.',
    params: WebhookEndpointParams,
    body: RotateWebhookBody,
    status: 200,
    answer: WebhookEndpointCreated,
    permission: 'partners.write',
    audit: 'partner.webhook.rotate',
    uncheckedBecause: AT_ONCE,
    cli: 'partner rotate-webhook',
    send: (login: string, id: string, body: RotateWebhookBody = {}) => ({ params: { login, id }, body }),
  }),
  attempts: adminEndpoint({
    method: 'GET',
    path: ADMIN_PARTNER_WEBHOOK_ATTEMPTS_PATH,
    operationId: 'listPartnerWebhookAttempts',
    tags,
    summary: "A webhook endpoint's delivery log, newest first",
    params: WebhookEndpointParams,
    querystring: WebhookAttemptQuery,
    status: 200,
    answer: WebhookAttemptList,
    permission: 'read',
    cli: 'partner webhook-log',
    send: (login: string, id: string, limit?: number) => ({ params: { login, id }, query: { limit: limit === undefined ? undefined : String(limit) } }),
  }),
  replay: adminEndpoint({
    method: 'POST',
    path: ADMIN_PARTNER_WEBHOOK_REPLAY_PATH,
    operationId: 'replayPartnerWebhook',
    tags,
    summary: 'Send one event again, or every event since a time, to a webhook endpoint',
    description: 'Each replayed event is a new delivery with the same `webhook-id` (receivers deduplicate on it). 404 `webhook_event_not_found` for an unknown event id.',
    params: WebhookEndpointParams,
    body: ReplayWebhooksBody,
    status: 200,
    answer: ReplayWebhooksResult,
    permission: 'partners.write',
    audit: 'partner.webhook.replay',
    uncheckedBecause: 'it sends again what was sent before, to an endpoint already registered',
    cli: 'partner replay-webhook',
    send: (login: string, id: string, body: ReplayWebhooksBody) => ({ params: { login, id }, body }),
  }),
};
