import { errors } from '../../errors.js';
import type { Partner } from '../../partners/partner.js';
import type { RequestContext } from '../../request-context.js';
import type { AuthDependencies } from '../auth-dependencies.js';
import { invalidTokenHeader } from '../tokens/access-tokens.js';
import { authenticateCountedToken } from './authenticate-partner.js';
import { tokenPresentation } from './authenticate-with-token.js';
import { checkPartnerAccess } from './check-partner-access.js';
import type { PortalSignIn } from '../../partner-users/portal-sign-in.js';
import { authenticatePortalSession } from './authenticate-portal-session.js';
import { readAccessToken } from './read-banks-credentials.js';

/**
 * Who calls the self-service API, in these steps: an access token (Bearer, or DPoP with its proof for this
 * method and path; 401 otherwise, counted like any refused token), of scope `self` (403 `insufficient_scope`:
 * a password login's token never has it), bound to a DPoP key or a certificate when the call changes anything
 * (403 `bound_token_required`: a leaked bearer token must not become a key or a webhook secret of the finder's own), for a partner
 * neither blocked nor outside its allowlist (403). The partner is the token's alone: no self-service call names a
 * partner, so none can reach another's.
 *
 * @example
 * ```ts
 * const partner = await authenticateSelf(context, 'GET', SELF_CALLS_PATH, deps);
 * ```
 */
export async function authenticateSelf(
  context: RequestContext,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  path: string,
  deps: Pick<AuthDependencies, 'tokens' | 'partners' | 'families' | 'dpop' | 'guard'> & { portal?: Pick<PortalSignIn, 'session'> },
  options: { changes?: boolean } = {},
): Promise<Partner> {
  const sessionId = context.authorization === undefined ? context.browser?.sessionId : undefined;
  if (sessionId !== undefined && deps.portal) return authenticatePortalSession(context, sessionId, options, deps.portal);
  const presented = context.authorization === undefined ? undefined : readAccessToken(context.authorization);
  if (!presented) return deps.guard.failCheap(errors.unauthorized(context.authorization === undefined ? 'invalid_token' : 'malformed_authorization', invalidTokenHeader), context.clientAddress);
  const holder = await authenticateCountedToken(presented.token, undefined, tokenPresentation(presented.scheme, context, path, method), context.clientAddress, deps);
  context.audit.partner = holder.partner.login;
  if (!holder.claims.self) throw errors.insufficientScope();
  if (options.changes && holder.claims.jkt === undefined && holder.claims.x5t === undefined) throw errors.boundTokenRequired();
  checkPartnerAccess(holder.partner, context.clientAddress);
  return holder.partner;
}
