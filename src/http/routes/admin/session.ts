import type { AdminIdentity } from '@partner-gateway/contract/admin-operators';
import { PERMISSIONS } from '@partner-gateway/contract/admin-permissions';
import { SESSION_ENDPOINTS } from '@partner-gateway/contract/admin-session-endpoints';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { errors } from '../../../errors.js';
import type { Gateway } from '../../../gateway.js';
import { actorAllows, type Actor } from '../../../request-context.js';
import { clearSessionCookie } from '../../session-cookie.js';
import { routeOf } from './admin-route.js';

/** Who is signed in, the console's session (and signing out), and how the console may sign in. */
export async function adminSessionRoutes(untyped: FastifyInstance, { gateway }: { gateway: Gateway }): Promise<void> {
  const app = untyped.withTypeProvider<TypeBoxTypeProvider>();
  app.route({ ...routeOf(SESSION_ENDPOINTS.signInOptions), handler: async () => ({ sso: gateway.sso !== undefined }) });
  app.route({ ...routeOf(SESSION_ENDPOINTS.me), handler: async (request) => identityOf(request.requestContext.actor!) });
  app.route({
    ...routeOf(SESSION_ENDPOINTS.get),
    handler: async (request) => {
      const actor = request.requestContext.actor!;
      if (actor.session === undefined) throw errors.notFound();
      return {
        identity: identityOf(actor),
        csrfToken: actor.session.csrfToken,
        idleExpiresAt: actor.session.idleExpiresAt.toISOString(),
        expiresAt: actor.session.expiresAt.toISOString(),
      };
    },
  });
  app.route({
    ...routeOf(SESSION_ENDPOINTS.signOut),
    handler: async (request, reply) => {
      const actor = request.requestContext.actor!;
      if (actor.session === undefined) throw errors.notFound();
      await gateway.admin.sessions.end(actor.session.idHash, actor.id);
      return reply.code(204).header('set-cookie', clearSessionCookie()).send();
    },
  });
}

/** What a credential acts as, with every permission it holds. */
function identityOf(actor: Actor): AdminIdentity {
  return {
    id: actor.id,
    name: actor.name,
    role: actor.role,
    credential: actor.credential === 'metrics' ? 'bootstrap' : actor.credential,
    permissions: PERMISSIONS.filter((permission) => actorAllows(actor, permission)),
  };
}
