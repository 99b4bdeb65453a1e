import type { AcceptInvitationRequest, InvitationTokenBody, InvitationView, PasskeyOptions, PortalSession, PortalSignInRequest, PortalSignOutRequest } from '@partner-gateway/contract/portal';
import { actAsPortalUser, authenticatePortalSession } from '../auth/steps/authenticate-portal-session.js';
import { errors } from '../errors.js';
import type { PortalSignIn, StartedSession } from '../partner-users/portal-sign-in.js';
import type { PortalUser, RequestContext } from '../request-context.js';

/**
 * The portal's own calls (`/portal/api/…`): an invitation accepted with a new passkey, a sign-in, the session and
 * signing out. Each answers the session's cookie id beside its body when it starts one; the HTTP layer sets the
 * cookie. Accepting and signing in are audited under the person and the partner.
 */
export interface PortalApi {
  invitation(body: InvitationTokenBody): Promise<InvitationView>;
  registrationOptions(body: InvitationTokenBody): Promise<PasskeyOptions>;
  accept(body: AcceptInvitationRequest, context: RequestContext): Promise<{ session: PortalSession; sessionId: string }>;
  signInOptions(): Promise<PasskeyOptions>;
  signIn(body: PortalSignInRequest, context: RequestContext): Promise<{ session: PortalSession; sessionId: string }>;
  session(context: RequestContext): Promise<PortalSession>;
  signOut(body: PortalSignOutRequest, context: RequestContext): Promise<void>;
}

/**
 * @example
 * ```ts
 * const portal = createPortalApi({ signIn: partnerUsers.signIn });
 * ```
 */
export function createPortalApi(deps: { signIn: PortalSignIn }): PortalApi {
  const started = (result: StartedSession, context: RequestContext, details: Record<string, unknown>) => {
    actAsPortalUser(context, result.principal);
    context.audit.details = details;
    return { session: toPortalSession(result.principal), sessionId: result.sessionId };
  };
  const current = (context: RequestContext) => {
    const sessionId = context.browser?.sessionId;
    if (sessionId === undefined) throw errors.portalSignInRequired();
    return sessionId;
  };
  return {
    invitation: (body) => deps.signIn.invitation(body.token),
    registrationOptions: (body) => deps.signIn.registrationOptions(body.token),
    async accept(body, context) {
      return started(await deps.signIn.accept(body), context, { passkey: body.response.id });
    },
    signInOptions: () => deps.signIn.signInOptions(),
    async signIn(body, context) {
      return started(await deps.signIn.signIn(body), context, { passkey: body.response.id });
    },
    async session(context) {
      return toPortalSession((await deps.signIn.session(current(context))).user);
    },
    async signOut(body, context) {
      await authenticatePortalSession(context, current(context), { changes: true, signingOut: true }, deps.signIn);
      const user = context.portalUser;
      if (user) await deps.signIn.signOut(user, body.everywhere === true);
      context.audit.details = { everywhere: body.everywhere === true };
    },
  };
}

/** A session as the portal sees it: never its cookie's id. */
export function toPortalSession(user: PortalUser): PortalSession {
  return { user: { id: user.userId, name: user.name, role: user.role }, partner: user.partnerLogin, csrfToken: user.csrfToken, expiresAt: user.expiresAt.toISOString() };
}
