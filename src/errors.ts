/**
 * The one error catalogue. Every refusal the gateway gives is built here: a named code, an HTTP status and
 * the exact `description_status` text partners see. The first seven texts are the interface
 * specification's own; new conditions are worded in the same style. Domain code throws these; the HTTP
 * error handler is the only place that turns them into responses.
 */

import type { AuthFailureReason } from '@partner-gateway/contract/audit-names';
import { describeProblem, type Problem } from '@partner-gateway/contract/error-body';


/** One offending field or row, for errors that list several (the contract's Problem). */
export type ErrorDetail = Problem;

/** A 422 lists at most this many problems (a file of 500 000 bad rows answers the first 100 and the count). */
export const MAX_LISTED_PROBLEMS = 100;

export class AppError extends Error {
  override name = 'AppError';
  constructor(
    readonly code: string,
    readonly status: number,
    readonly description: string,
    readonly extra: {
      reason?: AuthFailureReason;
      /**
       * The RFC 6749 section 5.2 `error` code: the answer then carries `error` and `error_description` beside
       * `description_status` (the OAuth endpoints' shape, OAuthErrorBody).
       */
      oauthError?: string;
      /** The `error_description` (never a secret, never the reason code); `description` when absent. */
      oauthDescription?: string;
      headers?: Record<string, string>;
      details?: ErrorDetail[];
      /** How many problems there are in all, when `details` lists only the first MAX_LISTED_PROBLEMS. */
      errorCount?: number;
    } = {},
  ) {
    super(description);
  }
}

export const texts = {
  unauthorized: 'User failed authorization; access to the resource is restricted',
  blocked: 'Access to the system is blocked; contact the account manager',
  ipNotAllowed: 'Access from this IP address is blocked; contact the account manager',
  rewardTypeUnavailable: 'This reward type is not available to this partner; contact the account manager',
  notEncrypted: 'Parameter partnerPassword is expected in encrypted form',
  internal: 'Service temporarily unavailable; repeat the operation later',
} as const;

export const errors = {
  unauthorized: (reason: AuthFailureReason, headers?: Record<string, string>) =>
    new AppError('unauthorized', 401, texts.unauthorized, { reason, ...(headers ? { headers } : {}) }),
  blocked: () => new AppError('blocked', 403, texts.blocked),
  ipNotAllowed: () => new AppError('ip_not_allowed', 403, texts.ipNotAllowed),
  rewardTypeUnavailable: () => new AppError('reward_type_unavailable', 403, texts.rewardTypeUnavailable),
  parameterMissing: (name: string) =>
    new AppError('parameter_missing', 422, `A required parameter ${name} was omitted; repeat the request with correct data`),
  notEncrypted: () => new AppError('not_encrypted', 422, texts.notEncrypted),
  parameterInvalid: (name: string) =>
    new AppError('parameter_invalid', 422, `Parameter ${name} has an invalid value; repeat the request with correct data`),
  /** `total`: how many problems there are when `details` lists only the first of them (MAX_LISTED_PROBLEMS). */
  validationFailed: (details: ErrorDetail[], total = details.length) =>
    new AppError(
      'validation_failed',
      422,
      `The request contains invalid data (${details
        .slice(0, 5)
        .map(describeDetail)
        .join('; ')}${total > 5 ? `; and ${total - 5} more` : ''}); repeat the request with correct data`,
      listedProblems(details, total),
    ),
  forbiddenKey: () =>
    new AppError('forbidden_key', 400, 'The request body must not contain a __proto__ or constructor key; repeat the request with correct data'),
  malformedBody: () => new AppError('malformed_body', 400, 'The request body is not valid JSON; repeat the request with correct data'),
  badRequest: () => new AppError('bad_request', 400, 'The request is malformed; repeat the request with correct data'),
  unsupportedMediaType: (accepted: string) =>
    new AppError('unsupported_media_type', 415, `The request body must be sent as ${accepted}; repeat the request with correct data`),
  payloadTooLarge: () => new AppError('payload_too_large', 413, 'The request body is too large; repeat the request with a smaller body'),
  /** A bank file (import body, registry download or what its ZIP unpacks to) past BANKS_IMPORT_MAX_BYTES. */
  importTooLarge: (limitBytes: number) =>
    new AppError('import_too_large', 413, `The file is larger than the import limit of ${describeBytes(limitBytes)} (BANKS_IMPORT_MAX_BYTES); nothing was changed: send a smaller file`),
  /** A bank file whose reading ran out of the worker's memory or time: refused whole, nothing changed. */
  importTooDemanding: (limit: string) =>
    new AppError('import_too_demanding', 422, `The file could not be read within ${limit}; nothing was changed: send a smaller or simpler file`),
  headersTooLarge: () =>
    new AppError('headers_too_large', 431, 'The request address or headers are too large; repeat the request with correct data'),
  requestTimeout: () => new AppError('request_timeout', 408, 'The request took too long to arrive; repeat the request'),
  /** A backup asked of a gateway on PostgreSQL: the database's own tools back it up. */
  backupNotEmbedded: () =>
    new AppError('backup_not_embedded', 409, 'The gateway runs on PostgreSQL: back the database up with pg_dump (docs/operations-database.md); this backup is for the embedded database'),
  notFound: () => new AppError('not_found', 404, 'The requested resource does not exist; check the address'),
  methodNotAllowed: (allowed: string) =>
    new AppError('method_not_allowed', 405, `This method is not allowed here; use ${allowed}`, { headers: { allow: allowed } }),
  partnerNotFound: (login: string) => new AppError('partner_not_found', 404, `Partner ${login} does not exist`),
  webhookNotFound: (id: string) => new AppError('webhook_not_found', 404, `Webhook endpoint ${id} does not exist for this partner`),
  webhookEventNotFound: (id: string) => new AppError('webhook_event_not_found', 404, `Webhook event ${id} does not exist (or was purged)`),
  webhookUrlRefused: (problem: string) => new AppError('webhook_url_refused', 422, `The webhook URL ${problem}; repeat the request with correct data`),
  webhookLimit: (limit: number) => new AppError('webhook_limit', 422, `A partner may have at most ${limit} webhook endpoints; delete one first`),
  partnerExists: (login: string) => new AppError('partner_exists', 409, `A partner with login ${login} already exists`),
  bankNotFound: (bic: string) => new AppError('bank_not_found', 404, `Bank with BIC ${bic} does not exist`),
  bankExists: (bic: string) => new AppError('bank_exists', 409, `A bank with BIC ${bic} already exists`),
  /** A change of the bank list previewed on a version that is no longer the current one: nothing was applied. */
  bankListChanged: (baseVersion: number, current: number) =>
    new AppError(
      'bank_list_changed',
      409,
      `The bank list has changed since version ${baseVersion} (it is now version ${current}); nothing was changed: preview the change again`,
    ),
  /** Admission (issue 34): a BIC the review queue does not hold, one an exclusion keeps out, a published one. */
  bankNotQueued: (bic: string) => new AppError('bank_not_queued', 404, `Bank with BIC ${bic} is not waiting in the admission queue`),
  bankExcluded: (bic: string, reason: string) => new AppError('bank_excluded', 409, `Bank with BIC ${bic} is excluded (${reason}); lift the exclusion first`),
  bankListed: (bic: string) => new AppError('bank_listed', 409, `Bank with BIC ${bic} is in the published list; remove it before excluding it`),
  bankExclusionNotFound: (id: number) => new AppError('bank_exclusion_not_found', 404, `Bank exclusion ${id} does not exist`),
  bankSyncNotConfigured: () => new AppError('bank_sync_not_configured', 409, 'The bank registry sync is not configured: set BANKS_SYNC_URL to the ED807 directory to sync from'),
  bankSyncRunning: () => new AppError('bank_sync_running', 409, 'A bank registry sync is running (on this or another instance); nothing was started: see GET /admin/v1/banks/sync'),
  /** The source could not be fetched or read: nothing changed, the run is recorded with the reason. */
  bankSyncFailed: (runId: number, problem: string) =>
    new AppError('bank_sync_failed', 502, `The bank registry sync failed (run ${runId}): ${problem}; nothing was changed`),
  /** A dry run's source could not be fetched or read (nothing is recorded for a dry run). */
  bankSyncPreviewFailed: (problem: string) => new AppError('bank_sync_failed', 502, `The bank registry sync preview failed: ${problem}; nothing was changed`),
  bankSyncRunNotFound: (id: number) => new AppError('bank_sync_run_not_found', 404, `Bank registry sync run ${id} does not exist`),
  bankSyncNotPending: (id: number, status: string) =>
    new AppError('bank_sync_not_pending', 409, `Bank registry sync run ${id} is ${status}; only a held run waiting for a decision can be approved or rejected`),
  /** The participant list (issue 34): its sync unset, running elsewhere, failing; a BIC without a pending proposal. */
  participantsSyncNotConfigured: () =>
    new AppError('participants_sync_not_configured', 409, "The participant list sync is not configured: set BANKS_PARTICIPANTS_URL to the settlement bank's B2C participant list"),
  participantsSyncRunning: () => new AppError('participants_sync_running', 409, 'A participant list sync is running (on this or another instance); nothing was started: see GET /admin/v1/banks/participants'),
  participantsSyncFailed: (runId: number, problem: string) =>
    new AppError('participants_sync_failed', 502, `The participant list sync failed (run ${runId}): ${problem}; nothing was changed`),
  proposalNotPending: (bic: string) => new AppError('proposal_not_pending', 404, `No proposal waits for confirmation for the bank with BIC ${bic}`),
  bankVersionNotFound: (number: number) => new AppError('bank_version_not_found', 404, `Bank list version ${number} does not exist (or is older than BANK_VERSION_RETENTION_DAYS)`),
  adminUnauthorized: () =>
    new AppError('admin_unauthorized', 401, texts.unauthorized, {
      reason: 'bad_admin_token',
      headers: { 'www-authenticate': 'Bearer realm="partner-gateway-admin"' },
    }),
  /**
   * A personal token of an operator created by single sign-on that has not signed in through it for longer than
   * OIDC_TOKEN_SIGN_IN_MAX_AGE: the identity provider must vouch for the person again. Only a holder of the token
   * gets this answer (an unknown token gets admin_unauthorized), so it tells a guesser nothing.
   */
  ssoSignInRequired: () =>
    new AppError(
      'sso_sign_in_required',
      401,
      'This personal token belongs to an operator who has not signed in through single sign-on recently enough (OIDC_TOKEN_SIGN_IN_MAX_AGE); sign in to the console through single sign-on again, then repeat the request with the same token',
      { headers: { 'www-authenticate': 'Bearer realm="partner-gateway-admin", error="invalid_token"' } },
    ),
  /** An operator's role lacks the route's permission (or the proposal's, for an approval). */
  forbidden: (permission: string) =>
    new AppError('forbidden', 403, `Your role does not allow this operation (it needs the ${permission} permission); ask a security operator`),
  /** A console session's change without its CSRF token (or from another origin). */
  csrfRefused: () =>
    new AppError('csrf_refused', 403, "The request does not carry the console session's CSRF token; reload the console and repeat the request"),
  operatorNotFound: () => new AppError('operator_not_found', 404, 'The operator does not exist'),
  operatorExists: (name: string) => new AppError('operator_exists', 409, `An operator named ${name} already exists`),
  operatorDisabled: () => new AppError('operator_disabled', 409, 'The operator is disabled; enable it first'),
  tokenNotFound: () => new AppError('token_not_found', 404, 'The operator has no such token'),
  proposalNotFound: () => new AppError('proposal_not_found', 404, 'The proposal does not exist'),
  ownProposal: () => new AppError('own_proposal', 403, 'A proposal must be approved by another operator than the one who proposed it'),
  credentialOfProposer: () =>
    new AppError(
      'credential_of_proposer',
      403,
      'This credential and the proposal come from the same operator (a token is counted as every operator it was created through); approve with a credential of your own, as a different operator',
    ),
  proposalDecided: (status: string) => new AppError('proposal_decided', 409, `The proposal is ${status}; only a pending proposal can be decided`),
  proposalExpired: () => new AppError('proposal_expired', 409, 'The proposal has expired (APPROVAL_TTL); nothing was changed: propose the change again'),
  proposalBaseChanged: () =>
    new AppError('proposal_base_changed', 409, 'What the proposal was previewed on has changed since; nothing was changed: propose the change again'),
  /** Too many single sign-ons begun and not finished (SSO_LOGIN_MAX_MS): from this address, or from all of them. */
  ssoPendingLimit: (scope: 'address' | 'total', retryAfterSeconds: number) =>
    new AppError(
      'sso_pending_limit',
      429,
      scope === 'address'
        ? 'Too many single sign-ons begun from this address and not finished; finish one or repeat the request later'
        : 'Too many single sign-ons are under way; repeat the request later',
      { headers: { 'retry-after': String(Math.max(1, retryAfterSeconds)) } },
    ),
  ssoNotConfigured: () => new AppError('sso_not_configured', 404, 'Single sign-on is not configured (OIDC_ISSUER)'),
  throttled: (retryAfterSeconds: number) =>
    new AppError('throttled', 429, 'Too many failed attempts; repeat the request later', {
      reason: 'throttled',
      headers: { 'retry-after': String(Math.max(1, retryAfterSeconds)) },
    }),
  busy: () =>
    new AppError('busy', 503, 'Service is busy; repeat the request later', { headers: { 'retry-after': '1' } }),
  auditBacklog: () =>
    new AppError('audit_backlog', 503, 'Service is busy; repeat the request later', { headers: { 'retry-after': '5' } }),
  shuttingDown: () =>
    new AppError('shutting_down', 503, 'Service is restarting; repeat the request later', { headers: { 'retry-after': '1', connection: 'close' } }),
  internal: () => new AppError('internal', 500, texts.internal),
  /**
   * A DPoP proof that fails RFC 9449's checks; the token endpoint answers 400, a resource 401 (see the callers).
   * `problem` (the `error_description`) names what is wrong with the proof: no secret, and what the client must fix.
   */
  invalidDpopProof: (reason: AuthFailureReason, problem = 'The DPoP proof is invalid') =>
    new AppError('invalid_dpop_proof', 400, texts.unauthorized, { reason, oauthError: 'invalid_dpop_proof', oauthDescription: problem }),
  /** A DPoP proof without a current nonce of the gateway's (RFC 9449 section 8, DPOP_NONCE=required): the answer's DPoP-Nonce has one. */
  useDpopNonce: (reason: AuthFailureReason, problem: string) =>
    new AppError('use_dpop_nonce', 400, texts.unauthorized, { reason, oauthError: 'use_dpop_nonce', oauthDescription: problem }),
  /**
   * Client authentication failed (RFC 6749 section 5.2 `invalid_client`, 401): every cause gives the same
   * answer, so that none tells a wrong secret from an unknown client or a refused key; the reason goes to the
   * logs and the audit trail only. `headers` carries `WWW-Authenticate: Basic` when the client used Basic.
   */
  invalidClient: (reason: AuthFailureReason, headers?: Record<string, string>) =>
    new AppError('invalid_client', 401, texts.unauthorized, {
      reason,
      oauthError: 'invalid_client',
      oauthDescription: 'Client authentication failed',
      ...(headers ? { headers } : {}),
    }),
  /**
   * A signed client assertion refused for what it claims to be (its `aud`, its `typ`): `invalid_client` like
   * every client authentication failure, but its `error_description` (`detail`) names the fault, so that the
   * partner can fix its client. Only for faults that tell nothing of the partner or its keys.
   */
  invalidClientAssertion: (reason: AuthFailureReason, detail: string) =>
    new AppError('invalid_client', 401, texts.unauthorized, { reason, oauthError: 'invalid_client', oauthDescription: detail }),
  /** An OAuth request that is malformed (RFC 6749 `invalid_request`, 400); `detail` says what, never echoing a secret. */
  invalidRequest: (detail: string, reason?: AuthFailureReason) =>
    new AppError('invalid_request', 400, `The request is invalid (${detail}); repeat the request with correct data`, {
      oauthError: 'invalid_request',
      oauthDescription: detail,
      ...(reason ? { reason } : {}),
    }),
  /** Scope `self` asked for by a client that did not prove a key or certificate (RFC 6749 `invalid_scope`, 400). */
  invalidScope: () =>
    new AppError('invalid_scope', 400, 'Scope self is granted only to a client authenticated by private_key_jwt or a client certificate; repeat the request with one of them', {
      oauthError: 'invalid_scope',
      oauthDescription: 'scope self needs private_key_jwt or a client certificate',
    }),
  /** A self-service call with a token that lacks scope `self` (RFC 6750 section 3.1 `insufficient_scope`, 403). */
  insufficientScope: () =>
    new AppError('insufficient_scope', 403, 'This operation needs an access token of scope self (client credentials with private_key_jwt or a client certificate)', {
      headers: { 'www-authenticate': 'Bearer error="insufficient_scope", scope="self"' },
    }),
  /**
   * A self-service change with a token bound to nothing: a leaked bearer token must not let its finder register a
   * key or a webhook secret of its own and keep the access (403; RFC 9449 DPoP or RFC 8705 certificate binding).
   */
  boundTokenRequired: () =>
    new AppError('bound_token_required', 403, 'A change needs a token bound to your DPoP key or client certificate; take the token with a DPoP proof (or over mutual TLS) and repeat the request'),
  /** Two changes of one partner's settings at once: the other one won; nothing was changed by this one. */
  settingsChangedMeanwhile: () => new AppError('settings_changed_meanwhile', 409, 'Your settings were changed by another request meanwhile; nothing was changed: read them and repeat the request'),
  /** A partner changing its own allowlist without an operator's leave (`selfManagedAllowlist`). */
  allowlistNotSelfManaged: () =>
    new AppError('allowlist_not_self_managed', 403, 'Your IP allowlist is managed by the provider: ask your operator to change it, or to let you change it yourself'),
  /** A partner's own new allowlist that would refuse the very address changing it: a lockout it could not undo. */
  allowlistExcludesCaller: () =>
    new AppError('allowlist_excludes_caller', 422, 'The new allowlist does not include the address this request came from; add it, or make the change from an address the new list includes'),
  /** A rotation by a partner whose keys are published at a jwksUri (it rotates them there). */
  keysPublished: () =>
    new AppError('keys_published', 409, 'Your keys are published at your jwksUri: rotate them there (publish the new key beside the old one, then remove the old one)'),
  /** A rotation whose new key has the kid or the thumbprint of a key already registered. */
  keyAlreadyRegistered: () => new AppError('key_already_registered', 409, 'A key with this kid or thumbprint is already registered; rotate to a new key'),
  /** Two rotations of one partner at once: the other one won; nothing was changed by this one. */
  keysChangedMeanwhile: () => new AppError('keys_changed_meanwhile', 409, 'Your keys were changed by another request meanwhile; nothing was changed: read them and repeat the request'),
  /** A certificate rotation whose new certificate is one already registered (same thumbprint). */
  certificateAlreadyRegistered: () => new AppError('certificate_already_registered', 409, 'This certificate is already registered; rotate to a new certificate'),
  /** Two certificate rotations of one partner at once: the other one won; nothing was changed by this one. */
  certificatesChangedMeanwhile: () =>
    new AppError('certificates_changed_meanwhile', 409, 'Your certificates were changed by another request meanwhile; nothing was changed: read them and repeat the request'),
  /** An invitation link unknown, used or expired: one answer for all three, so a guess learns nothing. */
  invitationUnknown: () => new AppError('invitation_unknown', 404, 'This invitation link is unknown, used or expired; ask for a new one'),
  /** A passkey the portal could not verify (unknown, a wrong origin, a challenge spent or expired, a bad signature). */
  passkeyRefused: () => new AppError('passkey_refused', 401, 'The passkey could not be verified; try again, or ask for a new invitation to register another passkey'),
  /** A portal request without a live session (none, ended, or past a timeout). */
  portalSignInRequired: () => new AppError('portal_sign_in_required', 401, 'Sign in to the portal again with your passkey'),
  /** A portal change without the session's CSRF token, or from another origin. */
  portalCsrfRefused: () => new AppError('portal_csrf_refused', 403, "The request does not carry the portal session's CSRF token; reload the portal and repeat the request"),
  /** A partner-developer asking for a change: developers read, admins change. */
  partnerAdminRequired: () => new AppError('partner_admin_required', 403, "This change needs the partner-admin role; ask one of your partner's admins"),
  /** A partner user id unknown to the calling partner (another partner's answers the same). */
  partnerUserUnknown: () => new AppError('partner_user_unknown', 404, 'This person is not one of your people'),
  /** A change that would leave the partner without a partner-admin. */
  lastPartnerAdmin: () => new AppError('last_partner_admin', 409, 'This is your last partner-admin: make someone else partner-admin first, or ask your operator'),
  /** Invitations or people beyond MAX_PARTNER_USERS, or passkeys beyond MAX_PASSKEYS_PER_USER. */
  partnerUsersLimit: (what: string, limit: number) => new AppError('partner_users_limit', 422, `At most ${limit} ${what}; remove one first`),
  /** Passkeys need a host name: WebAuthn refuses an IP address as the site (PUBLIC_URL). */
  passkeysUnavailable: () =>
    new AppError('passkeys_unavailable', 503, 'The portal needs PUBLIC_URL to name a host (passkeys do not work on an IP address); contact the provider'),
  /** A grant type other than client_credentials (RFC 6749 `unsupported_grant_type`, 400). */
  unsupportedGrantType: () =>
    new AppError('unsupported_grant_type', 400, 'Only grant_type client_credentials is supported; repeat the request with correct data', {
      oauthError: 'unsupported_grant_type',
      oauthDescription: 'Only client_credentials is supported',
    }),
};

function describeDetail(detail: ErrorDetail): string {
  return describeProblem(detail, 'body');
}

/** `4 MiB`, `512 KiB`, or bytes when neither divides evenly. */
export function describeBytes(bytes: number): string {
  if (bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MiB`;
  if (bytes % 1024 === 0) return `${bytes / 1024} KiB`;
  return `${bytes} bytes`;
}

/** The first MAX_LISTED_PROBLEMS problems, and how many there are in all when that is more than are listed. */
function listedProblems(details: ErrorDetail[], total: number): { details: ErrorDetail[]; errorCount?: number } {
  const listed = details.slice(0, MAX_LISTED_PROBLEMS);
  return total > listed.length ? { details: listed, errorCount: total } : { details: listed };
}
