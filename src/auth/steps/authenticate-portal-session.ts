import { errors } from '../../errors.js';
import type { Partner } from '../../partners/partner.js';
import { sameSecret } from '../../operators/operator-secrets.js';
import type { PortalSignIn } from '../../partner-users/portal-sign-in.js';
import type { PortalUser, RequestContext } from '../../request-context.js';

/**
 * Who calls the self-service API from the portal, in these steps: a live session (its cookie; 401
 * `portal_sign_in_required` otherwise), and for a change the session's CSRF token from this listener's own origin
 * (403 `portal_csrf_refused`) and, unless `signingOut` (which anyone may, a blocked partner's people too), the partner-admin role (403 `partner_admin_required`), for a partner that is not
 * blocked (403). The partner is the session's person's alone, as a token's is its client's: no call names a
 * partner. The IP allowlist governs the partner's API clients, not its people's browsers, and is not applied.
 * The audit entry names the person (credential `passkey`) beside the partner.
 *
 * @example
 * ```ts
 * const partner = await authenticatePortalSession(context, sessionId, { changes: true }, partnerUsers.signIn);
 * ```
 */
export async function authenticatePortalSession(
  context: RequestContext,
  sessionId: string,
  options: { changes?: boolean; signingOut?: boolean },
  portal: Pick<PortalSignIn, 'session'>,
): Promise<Partner> {
  const { user, partner } = await portal.session(sessionId);
  actAsPortalUser(context, user);
  if (options.changes) {
    const presented = context.browser?.csrfToken;
    if (presented === undefined || context.browser?.crossOrigin !== false || !sameSecret(presented, user.csrfToken)) throw errors.portalCsrfRefused();
    if (user.role !== 'partner-admin' && !options.signingOut) throw errors.partnerAdminRequired();
  }
  if (partner.status !== 'active' && !options.signingOut) throw errors.blocked();
  return partner;
}

/** The request acts as `user`: the operations see the person, and the audit entry names them beside their partner. */
export function actAsPortalUser(context: RequestContext, user: PortalUser): void {
  context.portalUser = user;
  context.audit.partner = user.partnerLogin;
  context.audit.operator = { id: user.userId, name: user.name, credential: 'passkey' };
}
