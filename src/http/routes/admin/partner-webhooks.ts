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
} from '@partner-gateway/contract/admin-webhooks';
import { LoginParams } from '@partner-gateway/contract/admin-partners';
import { ErrorBody } from '@partner-gateway/contract/error-body';
import {
  ADMIN_PARTNER_WEBHOOK_ATTEMPTS_PATH,
  ADMIN_PARTNER_WEBHOOK_PATH,
  ADMIN_PARTNER_WEBHOOK_REPLAY_PATH,
  ADMIN_PARTNER_WEBHOOK_ROTATE_PATH,
  ADMIN_PARTNER_WEBHOOKS_PATH,
} from '@partner-gateway/contract/paths';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { Gateway } from '../../../gateway.js';

const errorResponses = { '4xx': ErrorBody, '5xx': ErrorBody };
const tags = ['Partners'];

/**
 * A partner's webhook endpoints (issue 34): the partner sub-resource pattern for a collection. Creating and rotating
 * answer the signing material once; the audit entry keeps the endpoint's public view only (never a secret). These
 * changes are made at once, not through maker-checker: an approval would show the new secret to the approver rather
 * than to the operator who asked for it, and a webhook endpoint gives nobody access to the gateway.
 */
export async function adminPartnerWebhookRoutes(untyped: FastifyInstance, { gateway }: { gateway: Gateway }): Promise<void> {
  const app = untyped.withTypeProvider<TypeBoxTypeProvider>();
  const webhooks = gateway.admin.webhooks;
  app.get(
    ADMIN_PARTNER_WEBHOOKS_PATH,
    { config: { permission: 'read' }, schema: { operationId: 'listPartnerWebhooks', tags, summary: "A partner's webhook endpoints", params: LoginParams, response: { 200: WebhookEndpointList, ...errorResponses } } },
    async (request) => ({ endpoints: await webhooks.list(request.params.login) }),
  );
  app.post(
    ADMIN_PARTNER_WEBHOOKS_PATH,
    {
      config: { audit: 'partner.webhook.create', permission: 'partners.write' },
      schema: {
        operationId: 'createPartnerWebhook',
        tags,
        summary: 'Register a webhook endpoint for a partner (sbp_banks.updated events, Standard Webhooks format)',
        description:
          'Signed with ed25519 (`v1a`, the default: the answer carries the `whpk_` public key) or HMAC-SHA256 (`v1`: the answer carries the `whsec_` secret, shown this once). ' +
          '422 `webhook_url_refused` for a URL that is not https or names a private address (in production), 422 `webhook_limit` beyond 10 endpoints.',
        params: LoginParams,
        body: CreateWebhookBody,
        response: { 201: WebhookEndpointCreated, ...errorResponses },
      },
    },
    async (request, reply) => {
      const { login } = request.params;
      request.requestContext.audit.partner = login;
      const created = await webhooks.create(login, request.body);
      request.requestContext.audit.details = { after: created.endpoint };
      return reply.code(201).send(created);
    },
  );
  app.delete(
    ADMIN_PARTNER_WEBHOOK_PATH,
    {
      config: { audit: 'partner.webhook.delete', permission: 'partners.write' },
      schema: { operationId: 'deletePartnerWebhook', tags, summary: 'Remove a webhook endpoint (its queued deliveries and log go with it)', params: WebhookEndpointParams, response: { 204: { type: 'null', description: 'Removed' }, ...errorResponses } },
    },
    async (request, reply) => {
      const { login, id } = request.params;
      request.requestContext.audit.partner = login;
      request.requestContext.audit.details = { before: await webhooks.remove(login, id) };
      return reply.code(204).send(null);
    },
  );
  app.post(
    ADMIN_PARTNER_WEBHOOK_ROTATE_PATH,
    {
      config: { audit: 'partner.webhook.rotate', permission: 'partners.write' },
      schema: {
        operationId: 'rotatePartnerWebhook',
        tags,
        summary: "Rotate a webhook endpoint's signing material; the previous one signs too for the overlap (default 24 h)",
        description: 'Deliveries during the overlap carry both signatures. Rotating a disabled endpoint enables it again.',
        params: WebhookEndpointParams,
        body: RotateWebhookBody,
        response: { 200: WebhookEndpointCreated, ...errorResponses },
      },
    },
    async (request) => {
      const { login, id } = request.params;
      request.requestContext.audit.partner = login;
      const { before, ...rotated } = await webhooks.rotate(login, id, (request.body ?? {}) as RotateWebhookBody);
      request.requestContext.audit.details = { before, after: rotated.endpoint };
      return rotated;
    },
  );
  app.get(
    ADMIN_PARTNER_WEBHOOK_ATTEMPTS_PATH,
    {
      config: { permission: 'read' },
      schema: { operationId: 'listPartnerWebhookAttempts', tags, summary: "A webhook endpoint's delivery log, newest first", params: WebhookEndpointParams, querystring: WebhookAttemptQuery, response: { 200: WebhookAttemptList, ...errorResponses } },
    },
    async (request) => {
      const { login, id } = request.params;
      return { attempts: await webhooks.attempts(login, id, Number(request.query.limit ?? 100)) };
    },
  );
  app.post(
    ADMIN_PARTNER_WEBHOOK_REPLAY_PATH,
    {
      config: { audit: 'partner.webhook.replay', permission: 'partners.write' },
      schema: {
        operationId: 'replayPartnerWebhook',
        tags,
        summary: 'Send one event again, or every event since a time, to a webhook endpoint',
        description: 'Each replayed event is a new delivery with the same `webhook-id` (receivers deduplicate on it). 404 `webhook_event_not_found` for an unknown event id.',
        params: WebhookEndpointParams,
        body: ReplayWebhooksBody,
        response: { 200: ReplayWebhooksResult, ...errorResponses },
      },
    },
    async (request) => {
      const { login, id } = request.params;
      request.requestContext.audit.partner = login;
      const body = request.body;
      const queued = await webhooks.replay(login, id, body);
      request.requestContext.audit.details = { endpoint: id, ...body, queued };
      return { queued };
    },
  );
}
