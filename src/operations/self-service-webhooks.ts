import type { CreateWebhookBody, ReplayWebhooksBody, ReplayWebhooksResult, RotateWebhookBody, WebhookAttemptList, WebhookAttemptQuery, WebhookEndpointCreated, WebhookEndpointList } from '@partner-gateway/contract/admin-webhooks';
import { SELF_WEBHOOK_ATTEMPTS_PATH, SELF_WEBHOOK_PATH, SELF_WEBHOOK_REPLAY_PATH, SELF_WEBHOOK_ROTATE_PATH, SELF_WEBHOOKS_PATH, selfWebhookPath } from '@partner-gateway/contract/paths';
import type { SelfWebhookParams } from '@partner-gateway/contract/self-service';
import type { AuthDependencies } from '../auth/auth-dependencies.js';
import { authenticateSelf } from '../auth/steps/authenticate-self.js';
import type { RequestContext } from '../request-context.js';
import type { WebhookAdmin } from '../webhooks/webhook-admin.js';

/**
 * The partner's own webhook endpoints through the self-service API (`/api/v1/self/webhooks…`): the operations an
 * operator has on the admin API, for the calling partner alone. The partner is the token's; an endpoint id of
 * another partner answers exactly as an unknown one (WebhookAdmin checks the owner). Every change needs a bound
 * token (authenticateSelf's `changes`): creating and rotating answer signing material.
 */
export interface SelfWebhooksApi {
  list(context: RequestContext): Promise<WebhookEndpointList>;
  create(body: CreateWebhookBody, context: RequestContext): Promise<WebhookEndpointCreated>;
  remove(params: SelfWebhookParams, context: RequestContext): Promise<void>;
  rotate(params: SelfWebhookParams, body: RotateWebhookBody, context: RequestContext): Promise<WebhookEndpointCreated>;
  attempts(params: SelfWebhookParams, query: WebhookAttemptQuery, context: RequestContext): Promise<WebhookAttemptList>;
  replay(params: SelfWebhookParams, body: ReplayWebhooksBody, context: RequestContext): Promise<ReplayWebhooksResult>;
}

export type SelfWebhooksDependencies = Pick<AuthDependencies, 'tokens' | 'partners' | 'families' | 'dpop' | 'guard'> & { webhooks: WebhookAdmin };

/**
 * @example
 * ```ts
 * const webhooks = createSelfWebhooksApi({ ...auth, webhooks: admin.webhooks });
 * const { endpoints } = await webhooks.list(request.requestContext);
 * ```
 */
export function createSelfWebhooksApi(deps: SelfWebhooksDependencies): SelfWebhooksApi {
  const { webhooks } = deps;
  return {
    async list(context) {
      const partner = await authenticateSelf(context, 'GET', SELF_WEBHOOKS_PATH, deps);
      return { endpoints: await webhooks.list(partner.login) };
    },
    async create(body, context) {
      const partner = await authenticateSelf(context, 'POST', SELF_WEBHOOKS_PATH, deps, { changes: true });
      const created = await webhooks.create(partner.login, body);
      context.audit.details = { after: created.endpoint };
      return created;
    },
    async remove({ id }, context) {
      const partner = await authenticateSelf(context, 'DELETE', selfWebhookPath(SELF_WEBHOOK_PATH, id), deps, { changes: true });
      context.audit.details = { before: await webhooks.remove(partner.login, id) };
    },
    async rotate({ id }, body, context) {
      const partner = await authenticateSelf(context, 'POST', selfWebhookPath(SELF_WEBHOOK_ROTATE_PATH, id), deps, { changes: true });
      const { before, ...rotated } = await webhooks.rotate(partner.login, id, body);
      context.audit.details = { before, after: rotated.endpoint };
      return rotated;
    },
    async attempts({ id }, query, context) {
      const partner = await authenticateSelf(context, 'GET', selfWebhookPath(SELF_WEBHOOK_ATTEMPTS_PATH, id), deps);
      return { attempts: await webhooks.attempts(partner.login, id, Number(query.limit ?? 100)) };
    },
    async replay({ id }, body, context) {
      const partner = await authenticateSelf(context, 'POST', selfWebhookPath(SELF_WEBHOOK_REPLAY_PATH, id), deps, { changes: true });
      const queued = await webhooks.replay(partner.login, id, body);
      context.audit.details = { endpoint: id, ...body, queued };
      return { queued };
    },
  };
}
