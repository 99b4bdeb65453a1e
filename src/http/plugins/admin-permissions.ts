import { rolesWith, type Permission } from '@partner-gateway/contract/admin-permissions';
import type { AuditAction } from '@partner-gateway/contract/audit-names';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { errors } from '../../errors.js';
import { actorAllows } from '../../request-context.js';
import { isRecord } from '../../is-record.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * What the admin route needs (see the contract's admin-permissions), or `public` for the few read-only routes
     * that sign in. A route without one is refused to everybody, the bootstrap credential included.
     */
    permission?: Permission | 'public';
    /**
     * Body fields that need a permission of their own (a partner's password beside its other settings): a request
     * setting only such fields needs only theirs, the other fields need the route's.
     */
    fieldPermissions?: Partial<Record<string, Permission>>;
    /** The path parameter naming an operator: that operator may call the route on itself whatever its role (its own tokens). */
    selfService?: string;
  }
  interface FastifyInstance {
    /** Every route of the admin listener with the permission it declares, as registered (for the role tests). */
    adminRoutes: Array<{ method: string; url: string; permission: Permission | 'public' | undefined; hidden: boolean; operationId: string | undefined; audit: AuditAction | undefined }>;
  }
}

/**
 * Roles enforced in one place. Each admin route declares its permission in its config; this plugin writes it into
 * the route's OpenAPI operation (`x-permission`, `x-field-permissions`, and a sentence naming the roles) and, on
 * every request, refuses (403) an actor whose role lacks it, after the credential is checked and before the body
 * is read. Fields with a permission of their own are checked once the body is parsed. A route that declares
 * nothing fails closed: 403 for every actor.
 */
export const adminPermissions = fp(
  async (app: FastifyInstance) => {
    app.decorate('adminRoutes', []);
    app.addHook('onRoute', (route) => {
      const permission = route.config?.permission;
      const self = route.config?.selfService;
      const hidden = route.schema?.hide === true;
      const operationId = route.schema?.operationId as string | undefined;
      const audit = route.config?.audit;
      if (!route.config?.otherMethods) for (const method of [route.method].flat()) app.adminRoutes.push({ method, url: route.url, permission, hidden, operationId, audit });
      if (permission === undefined || permission === 'public' || route.schema === undefined || hidden) return;
      const fields = route.config?.fieldPermissions;
      const schema: Record<string, unknown> = {
        ...route.schema,
        description: [route.schema.description, describePermission(permission, fields)].filter(Boolean).join('\n\n'),
        'x-permission': permission,
        ...(fields ? { 'x-field-permissions': fields } : {}),
        ...(self ? { 'x-self-service': true } : {}),
      };
      if (self) schema.description += ' An operator may also call it on itself (its own tokens), whatever its role.';
      route.schema = schema;
    });
    app.addHook('onRequest', async (request) => {
      const config = request.routeOptions.config;
      if (request.is404 || config?.otherMethods || config?.adminConsoleAsset || config?.permission === 'public') return;
      const actor = request.requestContext.actor;
      if (actor === undefined) throw errors.adminUnauthorized();
      if (config?.metricsScrape && actor.credential === 'metrics') return;
      const permission = config?.permission;
      if (permission === undefined) {
        request.log.error({ route: request.routeOptions.url, method: request.method }, 'admin route without a permission: refused');
        throw errors.forbidden('(none declared)');
      }
      if (actor.credential === 'metrics') throw errors.forbidden(permission);
      if (config?.selfService !== undefined && isRecord(request.params) && request.params[config.selfService] === actor.id) return;
      const fields = Object.values(config?.fieldPermissions ?? {}) as Permission[];
      // With field permissions, holding any of them lets the body be read; preHandler then checks each field.
      if (!actorAllows(actor, permission) && !fields.some((field) => actorAllows(actor, field))) throw errors.forbidden(permission);
    });
    app.addHook('preHandler', async (request: FastifyRequest) => {
      const fields = request.routeOptions.config?.fieldPermissions;
      const actor = request.requestContext.actor;
      if (fields === undefined || actor === undefined || !isRecord(request.body)) return;
      for (const field of Object.keys(request.body)) {
        const needed = fields[field] ?? (request.routeOptions.config.permission as Permission);
        if (!actorAllows(actor, needed)) throw errors.forbidden(needed);
      }
    });
  },
  { name: 'admin-permissions', fastify: '5.x', dependencies: ['admin-auth'] },
);

/** The sentence the OpenAPI operation carries: the permission, the roles holding it, and any field's own. */
export function describePermission(permission: Permission, fields?: Partial<Record<string, Permission>>): string {
  const roles = (held: Permission) => [...rolesWith(held), 'the bootstrap ADMIN_TOKEN'].join(', ');
  const own = Object.entries(fields ?? {}).map(([field, needed]) => ` Setting \`${field}\` needs \`${needed}\` instead (roles: ${roles(needed!)}).`);
  return `Permission: \`${permission}\` (roles: ${roles(permission)}).${own.join('')}`;
}
