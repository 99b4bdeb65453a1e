import {
  CreateWebhookBody,
  ReplayWebhooksBody,
  ReplayWebhooksResult,
  RotateWebhookBody,
  WebhookAttemptList,
  WebhookAttemptQuery,
  WebhookEndpointCreated,
  WebhookEndpointList,
} from '@partner-gateway/contract/admin-webhooks';
import { SELF_WEBHOOK_ATTEMPTS_PATH, SELF_WEBHOOK_PATH, SELF_WEBHOOK_REPLAY_PATH, SELF_WEBHOOK_ROTATE_PATH, SELF_WEBHOOKS_PATH } from '@partner-gateway/contract/paths';
import { SelfWebhookParams } from '@partner-gateway/contract/self-service';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { errors } from '../../errors.js';
import type { Gateway } from '../../gateway.js';
import { partnerCallErrors } from './error-body.js';
import { AUTH_ERRORS, AUTH_TEXT, CHANGE_ERRORS, CHANGE_TEXT, SECURITY } from './self-service-security.js';

const tags = ['Self-service'];
const NOT_FOUND = { 404: [errors.webhookNotFound('{id}').description] };
const INVALID = { 422: [errors.validationFailed([{ field: 'url', message: 'must be a string' }]).description] };

/**
 * `/api/v1/self/webhooks…`: a partner's own webhook endpoints (docs/webhooks.md), the admin API's operations for the
 * token's partner alone. Another partner's endpoint id answers as an unknown one.
 */
export async function selfServiceWebhookRoutes(untyped: FastifyInstance, { gateway }: { gateway: Gateway }): Promise<void> {
  const app = untyped.withTypeProvider<TypeBoxTypeProvider>();
  const webhooks = gateway.selfService.webhooks;
  app.get(
    SELF_WEBHOOKS_PATH,
    {
      config: { audit: 'self.webhooks' },
      schema: { operationId: 'selfListWebhooks', tags, summary: 'Your webhook endpoints', description: AUTH_TEXT, security: SECURITY, response: { 200: WebhookEndpointList, ...partnerCallErrors(AUTH_ERRORS) } },
    },
    async (request) => webhooks.list(request.requestContext),
  );
  app.post(
    SELF_WEBHOOKS_PATH,
    {
      config: { audit: 'self.webhooks.create' },
      schema: {
        operationId: 'selfCreateWebhook',
        tags,
        summary: 'Register a webhook endpoint (sbp_banks.updated and credential.expiring events, Standard Webhooks format)',
        description:
          `${AUTH_TEXT} ${CHANGE_TEXT} Signed with ed25519 (\`v1a\`, the default: the answer carries the \`whpk_\` public key) or HMAC-SHA256 (\`v1\`: the answer carries the \`whsec_\` secret, shown this once). ` +
          'The URL must be https and name a public address (in production); at most 10 endpoints.',
        security: SECURITY,
        body: CreateWebhookBody,
        response: {
          201: WebhookEndpointCreated,
          ...partnerCallErrors({ ...CHANGE_ERRORS, 422: [...INVALID[422], errors.webhookUrlRefused('must use https').description, errors.webhookLimit(10).description] }),
        },
      },
    },
    async (request, reply) => reply.code(201).send(await webhooks.create(request.body, request.requestContext)),
  );
  app.delete(
    SELF_WEBHOOK_PATH,
    {
      config: { audit: 'self.webhooks.delete' },
      schema: {
        operationId: 'selfDeleteWebhook',
        tags,
        summary: 'Remove a webhook endpoint (its queued deliveries and log go with it)',
        description: `${AUTH_TEXT} ${CHANGE_TEXT}`,
        security: SECURITY,
        params: SelfWebhookParams,
        response: { 204: { type: 'null', description: 'Removed' }, ...partnerCallErrors({ ...CHANGE_ERRORS, ...NOT_FOUND }) },
      },
    },
    async (request, reply) => {
      await webhooks.remove(request.params, request.requestContext);
      return reply.code(204).send(null);
    },
  );
  app.post(
    SELF_WEBHOOK_ROTATE_PATH,
    {
      config: { audit: 'self.webhooks.rotate' },
      schema: {
        operationId: 'selfRotateWebhook',
        tags,
        summary: 'New signing material for an endpoint; the previous one signs too for the overlap (default 24 hours)',
        description: `${AUTH_TEXT} ${CHANGE_TEXT} The new secret or public key is answered this once. A disabled endpoint is enabled again.`,
        security: SECURITY,
        params: SelfWebhookParams,
        body: RotateWebhookBody,
        response: { 200: WebhookEndpointCreated, ...partnerCallErrors({ ...CHANGE_ERRORS, ...NOT_FOUND, ...INVALID }) },
      },
    },
    async (request) => webhooks.rotate(request.params, request.body, request.requestContext),
  );
  app.get(
    SELF_WEBHOOK_ATTEMPTS_PATH,
    {
      config: { audit: 'self.webhooks.attempts' },
      schema: {
        operationId: 'selfWebhookAttempts',
        tags,
        summary: "An endpoint's delivery log, newest first",
        description: AUTH_TEXT,
        security: SECURITY,
        params: SelfWebhookParams,
        querystring: WebhookAttemptQuery,
        response: { 200: WebhookAttemptList, ...partnerCallErrors({ ...AUTH_ERRORS, ...NOT_FOUND }) },
      },
    },
    async (request) => webhooks.attempts(request.params, request.query, request.requestContext),
  );
  app.post(
    SELF_WEBHOOK_REPLAY_PATH,
    {
      config: { audit: 'self.webhooks.replay' },
      schema: {
        operationId: 'selfReplayWebhooks',
        tags,
        summary: 'Send one event again, or every event since a time, to an endpoint',
        description: `${AUTH_TEXT} ${CHANGE_TEXT} Only events meant for you are sent: the bank list's, and your own credentials'.`,
        security: SECURITY,
        params: SelfWebhookParams,
        body: ReplayWebhooksBody,
        response: {
          200: ReplayWebhooksResult,
          ...partnerCallErrors({ ...CHANGE_ERRORS, 404: [...NOT_FOUND[404], errors.webhookEventNotFound('{eventId}').description], ...INVALID }),
        },
      },
    },
    async (request) => webhooks.replay(request.params, request.body, request.requestContext),
  );
}
