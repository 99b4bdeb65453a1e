import type { CheckedActionName } from '@partner-gateway/contract/admin-approvals';
import type { AdminEndpoint } from '@partner-gateway/contract/admin-endpoint';
import type { LoginParams } from '@partner-gateway/contract/admin-partners';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { Gateway } from '../../../gateway.js';
import { routeOf } from './admin-route.js';
import { answerChecked } from './answer-submitted.js';

/** A sub-resource endpoint of a partner: its path names the partner (`/admin/v1/partners/:login/<name>`). */
type PartnerEndpoint = AdminEndpoint & { params: typeof LoginParams };

/**
 * One of a partner's sub-resources (its keys, its certificates, …) on the admin API: `set` (a PUT, a checked
 * action: 202 with a proposal when it needs approval) answers its view, `remove` (a DELETE) answers 204.
 */
export interface PartnerSubresourceRoutes {
  set: PartnerEndpoint & { checked: CheckedActionName };
  remove: PartnerEndpoint;
  /** The admin service that removes it, from `gateway.admin` (setting goes through maker-checker). */
  service: (admin: Gateway['admin']) => SubresourceService;
}

/** What the routes need of a sub-resource's admin service (partners/partner-subresource-admin.ts implements it). */
interface SubresourceService {
  remove(login: string): Promise<{ before: unknown; after: unknown; sessionsEnded: boolean }>;
}

/**
 * The admin routes of a partner sub-resource, as a plugin to register. The audit entry keeps
 * `{ before, after, sessionsEnded }`: the sub-resource's public view (never key or certificate material) before
 * and after the change (the checked action notes it when it sets).
 *
 * @example
 * ```ts
 * export const adminPartnerJwksRoutes = partnerSubresourceRoutes({ set: PARTNER_ENDPOINTS.setJwks, remove: PARTNER_ENDPOINTS.deleteJwks, service: (admin) => admin.partnerKeys });
 * ```
 */
export function partnerSubresourceRoutes({ set, remove, service }: PartnerSubresourceRoutes) {
  return async function routes(untyped: FastifyInstance, { gateway }: { gateway: Gateway }): Promise<void> {
    const app = untyped.withTypeProvider<TypeBoxTypeProvider>();
    const subresource = service(gateway.admin);
    app.route({
      ...routeOf(set),
      handler: async (request, reply) => answerChecked(gateway, set, { login: request.params.login, body: request.body }, request, reply),
    });
    app.route({
      ...routeOf(remove),
      handler: async (request, reply) => {
        const { login } = request.params;
        // The partner is noted even if the change fails.
        request.requestContext.audit.partner = login;
        const { before, after, sessionsEnded } = await subresource.remove(login);
        request.requestContext.audit.details = { before, after, sessionsEnded };
        return reply.code(204).send();
      },
    });
  };
}
