import type { AuditAction } from '@partner-gateway/contract/audit-names';
import type { Permission } from '@partner-gateway/contract/admin-permissions';
import { LoginParams } from '@partner-gateway/contract/admin-partners';
import { ErrorBody } from '@partner-gateway/contract/error-body';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TSchema } from 'typebox';
import type { Gateway } from '../../../gateway.js';
import { answerSubmitted, PROPOSED } from './answer-submitted.js';

const errorResponses = { '4xx': ErrorBody, '5xx': ErrorBody };
const tags = ['Partners'];

/**
 * One of a partner's sub-resources (its keys, its certificates, …) on the admin API: `PUT path` sets it from a
 * body and answers its view (through maker-checker: 202 with a proposal when its action needs approval), `DELETE
 * path` removes it (204). Everything but this description is the same for all.
 */
export interface PartnerSubresourceRoutes {
  /** `/admin/v1/partners/:login/<name>`, from the contract's paths. */
  path: string;
  /** The contract's schemas of the PUT body and of the view it answers. */
  body: TSchema;
  view: TSchema;
  set: RouteText & {
    /** The maker-checker action setting it is (its PUT answers 202 with a proposal when the action needs approval). */
    checked: string;
  };
  remove: RouteText;
  /** The admin service that does it, from `gateway.admin`. */
  service: (admin: Gateway['admin']) => SubresourceService;
}

/** How an operation appears in the API documents and in the audit trail. */
interface RouteText {
  operationId: string;
  summary: string;
  description: string;
  /** The audit entry's action (audit-names.ts); its details are the sub-resource before and after, and whether sessions ended. */
  audit: AuditAction;
  /** What the operator must be allowed (admin-permissions.ts). */
  permission: Permission;
}

/** What the routes need of a sub-resource's admin service (partners/partner-subresource-admin.ts implements it); setting goes through maker-checker. */
interface SubresourceService {
  remove(login: string): Promise<SubresourceChange>;
}
interface SubresourceChange {
  before: unknown;
  after: unknown;
  sessionsEnded: boolean;
}

/**
 * The admin routes of a partner sub-resource, as a plugin to register. Each route is its schema and one call; the
 * audit entry, under the description's action names, keeps `{ before, after, sessionsEnded }`: the sub-resource's
 * public view (never key or certificate material) before and after the change.
 *
 * @example
 * ```ts
 * export const adminPartnerJwksRoutes = partnerSubresourceRoutes({ path: ADMIN_PARTNER_JWKS_PATH, body: SetPartnerJwksBody, view: PartnerJwksView, set, remove, service: (admin) => admin.partnerKeys });
 * ```
 */
export function partnerSubresourceRoutes({ path, body, view, set, remove, service }: PartnerSubresourceRoutes) {
  return async function routes(app: FastifyInstance, { gateway }: { gateway: Gateway }): Promise<void> {
    const subresource = service(gateway.admin);
    app.put<{ Params: LoginParams }>(
      path,
      {
        config: { audit: set.audit, permission: set.permission },
        schema: {
          operationId: set.operationId,
          tags,
          summary: set.summary,
          description: `${set.description} Maker-checker action \`${set.checked}\`: when it needs approval, the answer is 202 with a proposal.`,
          params: LoginParams,
          body,
          response: { 200: view, ...PROPOSED, ...errorResponses },
        },
      },
      // Submitted to maker-checker, which makes it at once (the checked action sets the audit entry's details, the
      // view after: never null once something is registered) or holds it as a proposal.
      async (request, reply) =>
        answerSubmitted(reply, await gateway.admin.approvals.submit(set.checked, { login: request.params.login, body: request.body }, request.requestContext)),
    );
    app.delete<{ Params: LoginParams }>(
      path,
      {
        config: { audit: remove.audit, permission: remove.permission },
        schema: {
          operationId: remove.operationId,
          tags,
          summary: remove.summary,
          description: remove.description,
          params: LoginParams,
          response: { 204: { type: 'null', description: 'Removed' }, ...errorResponses },
        },
      },
      async (request, reply) => {
        await audited(request, request.params.login, (login) => subresource.remove(login));
        return reply.code(204).send();
      },
    );
  };
}

/** Makes the change to the partner the path names, noting that partner (even if it fails) and the change for the call's audit entry; the view after. */
async function audited(request: FastifyRequest, login: string, change: (login: string) => Promise<SubresourceChange>): Promise<unknown> {
  request.requestContext.audit.partner = login;
  const { before, after, sessionsEnded } = await change(login);
  request.requestContext.audit.details = { before, after, sessionsEnded };
  return after;
}
