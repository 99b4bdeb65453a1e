import { errors, texts } from '../../errors.js';

/** What every self-service operation's document says about authentication: the schemes, the text, the refusals. */
export const SECURITY: Array<Record<string, string[]>> = [{ bearerAuth: [] }, { dpopAuth: [] }, { portalSession: [] }];
export const AUTH_TEXT =
  'Authenticate with an access token of scope `self`: client credentials (`POST /api/v1/oauth/token`, `scope=self`) with private_key_jwt or a client certificate. ' +
  "A password login's token, or a token without the scope, is refused (403 `insufficient_scope`). The partner is always the token's: nothing here names a partner. " +
  "The partner portal makes the same calls with its session cookie instead (a partner user signed in with a passkey; docs/portal-security.md).";
export const AUTH_ERRORS = {
  401: [texts.unauthorized],
  403: [errors.insufficientScope().description, texts.blocked, texts.ipNotAllowed],
  429: [errors.throttled(60).description],
};

/** A change's refusals: those of every operation, and a token bound to nothing (403 `bound_token_required`). */
export const CHANGE_ERRORS = {
  ...AUTH_ERRORS,
  403: [...AUTH_ERRORS[403], errors.boundTokenRequired().description, errors.portalCsrfRefused().description, errors.partnerAdminRequired().description],
};

/** Said of every change: the token it needs. */
export const CHANGE_TEXT =
  'The token must be bound to a DPoP key (send it as `Authorization: DPoP` with a proof) or to your client certificate: a bearer token is refused (403 `bound_token_required`). ' +
  "From the portal, a change needs the partner-admin role (403 `partner_admin_required`) and the session's `X-CSRF-Token` (403 `portal_csrf_refused`).";
