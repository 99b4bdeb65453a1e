import {
  PORTAL_INVITATION_ACCEPT_PATH,
  PORTAL_INVITATION_OPTIONS_PATH,
  PORTAL_INVITATION_PATH,
  PORTAL_PATH,
  PORTAL_SESSION_PATH,
  PORTAL_SIGN_IN_OPTIONS_PATH,
  PORTAL_SIGN_IN_PATH,
  PORTAL_SIGN_OUT_PATH,
} from '@partner-gateway/contract/paths';
import { AcceptInvitationRequest, InvitationTokenBody, InvitationView, PasskeyOptions, PortalSession, PortalSignInRequest, PortalSignOutRequest } from '@partner-gateway/contract/portal';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { AppError, errors } from '../../errors.js';
import type { Gateway } from '../../gateway.js';
import { projectFile } from '../../project-root.js';
import { serveBuiltPage } from '../plugins/admin-console.js';
import { clearPortalSessionCookie, portalSessionCookie } from '../session-cookie.js';
import { partnerCallErrors } from './error-body.js';

const tags = ['Portal'];
/** Accepting an invitation and signing in need no credential yet: the invitation's secret or the passkey is the proof. */
const NONE: Array<Record<string, string[]>> = [];
const SESSION_COOKIE = [{ portalSession: [] }];
const INVITATION = { 404: [errors.invitationUnknown().description], 503: [errors.passkeysUnavailable().description] };
const PASSKEY = { ...INVITATION, 401: [errors.passkeyRefused().description] };
const SESSION = { 401: [errors.portalSignInRequired().description] };

/**
 * The partner portal (docs/portal-security.md): its page at `/portal/` (the built `dist/portal`, under the console's
 * strict CSP) and its own calls under `/portal/api/`: an invitation accepted with a new passkey, a passkey sign-in,
 * the session and signing out. A session's cookie holds a random id, never a token.
 */
export async function portalRoutes(untyped: FastifyInstance, { gateway, root = projectFile('dist/portal') }: { gateway: Gateway; root?: string }): Promise<void> {
  const app = untyped.withTypeProvider<TypeBoxTypeProvider>();
  const portal = gateway.portal;
  app.post(
    PORTAL_INVITATION_PATH,
    { schema: { operationId: 'portalInvitation', tags, security: NONE, summary: 'What an invitation link offers (partner, name, role), before a passkey is created', body: InvitationTokenBody, response: { 200: InvitationView, ...partnerCallErrors(INVITATION) } } },
    async (request) => portal.invitation(request.body),
  );
  app.post(
    PORTAL_INVITATION_OPTIONS_PATH,
    { schema: { operationId: 'portalRegistrationOptions', tags, security: NONE, summary: "WebAuthn options for the invited person's new passkey (navigator.credentials.create)", body: InvitationTokenBody, response: { 200: PasskeyOptions, ...partnerCallErrors(INVITATION) } } },
    async (request) => portal.registrationOptions(request.body),
  );
  app.post(
    PORTAL_INVITATION_ACCEPT_PATH,
    {
      config: { audit: 'portal.invitation.accept' },
      schema: { operationId: 'portalAcceptInvitation', tags, security: NONE, summary: 'Accept an invitation with the new passkey: the person is registered and signed in', body: AcceptInvitationRequest, response: { 200: PortalSession, ...partnerCallErrors(PASSKEY) } },
    },
    async (request, reply) => signedIn(reply, await portal.accept(request.body, request.requestContext)),
  );
  app.post(
    PORTAL_SIGN_IN_OPTIONS_PATH,
    { schema: { operationId: 'portalSignInOptions', tags, security: NONE, summary: 'WebAuthn options for signing in with a passkey (navigator.credentials.get)', response: { 200: PasskeyOptions, ...partnerCallErrors({ 503: INVITATION[503] }) } } },
    async () => portal.signInOptions(),
  );
  app.post(
    PORTAL_SIGN_IN_PATH,
    {
      config: { audit: 'portal.sign-in' },
      schema: { operationId: 'portalSignIn', tags, security: NONE, summary: 'Sign in with a passkey', body: PortalSignInRequest, response: { 200: PortalSession, ...partnerCallErrors(PASSKEY) } },
    },
    async (request, reply) => signedIn(reply, await portal.signIn(request.body, request.requestContext)),
  );
  app.get(
    PORTAL_SESSION_PATH,
    { schema: { operationId: 'portalSession', tags, security: SESSION_COOKIE, summary: 'Who is signed in, and the CSRF token changes carry', response: { 200: PortalSession, ...partnerCallErrors(SESSION) } } },
    async (request, reply) => forgetRefused(reply, () => portal.session(request.requestContext)),
  );
  app.post(
    PORTAL_SIGN_OUT_PATH,
    {
      config: { audit: 'portal.sign-out' },
      schema: {
        operationId: 'portalSignOut',
        tags,
        security: SESSION_COOKIE,
        summary: 'Sign out of this session, or of every session of yours (`everywhere`)',
        body: PortalSignOutRequest,
        response: { 204: { type: 'null', description: 'Signed out' }, ...partnerCallErrors({ ...SESSION, 403: [errors.portalCsrfRefused().description] }) },
      },
    },
    async (request, reply) => {
      await portal.signOut(request.body ?? {}, request.requestContext);
      return reply.code(204).header('set-cookie', clearPortalSessionCookie()).send(null);
    },
  );
  // The page holds no data: every call it makes carries the session.
  await serveBuiltPage(app, { root, path: PORTAL_PATH, title: 'Partner portal' });
}

function signedIn(reply: FastifyReply, { session, sessionId }: { session: PortalSession; sessionId: string }) {
  return reply.header('set-cookie', portalSessionCookie(sessionId)).send(session);
}

/** A session that is over also clears its cookie, so that the browser stops presenting it. */
async function forgetRefused<T>(reply: FastifyReply, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (error instanceof AppError && error.status === 401) reply.header('set-cookie', clearPortalSessionCookie());
    throw error;
  }
}
