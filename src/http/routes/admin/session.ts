import { AdminIdentity, SessionView, SignInOptions } from '@partner-gateway/contract/admin-operators';
import { PERMISSIONS } from '@partner-gateway/contract/admin-permissions';
import { ErrorBody } from '@partner-gateway/contract/error-body';
import { ADMIN_ME_PATH, ADMIN_SESSION_PATH, ADMIN_SIGN_IN_PATH } from '@partner-gateway/contract/paths';
import type { FastifyInstance } from 'fastify';
import { errors } from '../../../errors.js';
import type { Gateway } from '../../../gateway.js';
import { actorAllows, type Actor } from '../../../request-context.js';
import { clearSessionCookie } from '../../session-cookie.js';

const errorResponses = { '4xx': ErrorBody, '5xx': ErrorBody };
const tags = ['Operators'];

/** Who is signed in, the console's session (and signing out), and how the console may sign in. */
export async function adminSessionRoutes(app: FastifyInstance, { gateway }: { gateway: Gateway }): Promise<void> {
  app.get(
    ADMIN_SIGN_IN_PATH,
    { config: { permission: 'public' }, schema: { operationId: 'getSignInOptions', tags, summary: 'How the console may sign in (no credential needed)', security: [], response: { 200: SignInOptions, ...errorResponses } } },
    async () => ({ sso: gateway.sso !== undefined }),
  );
  app.get(
    ADMIN_ME_PATH,
    { config: { permission: 'read' }, schema: { operationId: 'getMe', tags, summary: 'Who this credential acts as: operator, role, credential and permissions', response: { 200: AdminIdentity, ...errorResponses } } },
    async (request) => identityOf(request.requestContext.actor!),
  );
  app.get(
    ADMIN_SESSION_PATH,
    {
      config: { permission: 'read' },
      schema: {
        operationId: 'getSession',
        tags,
        summary: "The console's single sign-on session: who, its CSRF token and its timeouts (404 with a bearer credential)",
        description: 'Authenticated by the session cookie the sign-in set (HttpOnly, Secure, SameSite=Strict). Changes made with the cookie must send `X-CSRF-Token`.',
        response: { 200: SessionView, ...errorResponses },
      },
    },
    async (request) => {
      const actor = request.requestContext.actor!;
      if (actor.session === undefined) throw errors.notFound();
      return {
        identity: identityOf(actor),
        csrfToken: actor.session.csrfToken,
        idleExpiresAt: actor.session.idleExpiresAt.toISOString(),
        expiresAt: actor.session.expiresAt.toISOString(),
      };
    },
  );
  app.delete(
    ADMIN_SESSION_PATH,
    {
      config: { audit: 'session.sign-out', permission: 'read' },
      schema: { operationId: 'signOut', tags, summary: 'Sign out: the session ends on every instance and its cookie is refused from now on', response: { 204: { type: 'null', description: 'Signed out' }, ...errorResponses } },
    },
    async (request, reply) => {
      const actor = request.requestContext.actor!;
      if (actor.session === undefined) throw errors.notFound();
      await gateway.admin.sessions.end(actor.session.idHash);
      return reply.code(204).header('set-cookie', clearSessionCookie()).send();
    },
  );
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
