/** The addresses of both APIs' operations, written once for the server, the SDK, the CLI and the console. */

export const LOGIN_PATH = '/api/v1/login/';
export const REFRESH_PATH = '/api/v1/token/refresh/';
export const LOGOUT_PATH = '/api/v1/logout/';
export const JWKS_PATH = '/.well-known/jwks.json';
/** The self-service API: a partner's own automation, with a client-credentials token of scope `self`. */
export const SELF_KEYS_PATH = '/api/v1/self/keys';
export const SELF_CALLS_PATH = '/api/v1/self/calls';
export const SELF_USAGE_PATH = '/api/v1/self/usage';
export const SELF_SETTINGS_PATH = '/api/v1/self/settings';
export const SELF_ALLOWLIST_PATH = '/api/v1/self/allowlist';
export const SELF_PASSWORD_PATH = '/api/v1/self/password';
export const SELF_CERTIFICATES_PATH = '/api/v1/self/certificates';
export const SELF_WEBHOOKS_PATH = '/api/v1/self/webhooks';
export const SELF_USERS_PATH = '/api/v1/self/users';
export const SELF_INVITATIONS_PATH = '/api/v1/self/users/invitations';
export const SELF_USER_PATH = '/api/v1/self/users/:id';
/** The partner portal's page, and the calls only its browser session makes (signing in with a passkey). */
export const PORTAL_PATH = '/portal/';
export const PORTAL_INVITATION_PATH = '/portal/api/invitation';
export const PORTAL_INVITATION_OPTIONS_PATH = '/portal/api/invitation/options';
export const PORTAL_INVITATION_ACCEPT_PATH = '/portal/api/invitation/accept';
export const PORTAL_SIGN_IN_OPTIONS_PATH = '/portal/api/sign-in/options';
export const PORTAL_SIGN_IN_PATH = '/portal/api/sign-in';
export const PORTAL_SESSION_PATH = '/portal/api/session';
export const PORTAL_SIGN_OUT_PATH = '/portal/api/sign-out';
export const SELF_WEBHOOK_PATH = '/api/v1/self/webhooks/:id';
export const SELF_WEBHOOK_ROTATE_PATH = '/api/v1/self/webhooks/:id/rotate';
export const SELF_WEBHOOK_ATTEMPTS_PATH = '/api/v1/self/webhooks/:id/attempts';
export const SELF_WEBHOOK_REPLAY_PATH = '/api/v1/self/webhooks/:id/replay';

/**
 * A self-service webhook path with its endpoint's id filled in.
 *
 * @example
 * ```ts
 * selfWebhookPath(SELF_WEBHOOK_ROTATE_PATH, '0b6f…'); // '/api/v1/self/webhooks/0b6f…/rotate'
 * ```
 */
export function selfWebhookPath(template: typeof SELF_WEBHOOK_PATH | typeof SELF_WEBHOOK_ROTATE_PATH | typeof SELF_WEBHOOK_ATTEMPTS_PATH | typeof SELF_WEBHOOK_REPLAY_PATH, id: string): string {
  return template.replace(':id', encodeURIComponent(id));
}
export const HEALTH_PATH = '/healthz';
export const READY_PATH = '/readyz';
export const OPENAPI_PATH = '/openapi.json';
export const DOCS_PATH = '/docs';

/**
 * The banks operation's path; `provider` is the fixed literal segment naming the payment provider
 * (PROVIDER_SEGMENT).
 *
 * @example
 * ```ts
 * banksPath('acquirer'); // '/partner/acquirer/sbp/banks/'
 * ```
 */
export function banksPath(providerSegment: string): string {
  return `/partner/${providerSegment}/sbp/banks/`;
}

export const ADMIN_PARTNERS_PATH = '/admin/v1/partners';
export const ADMIN_BANKS_PATH = '/admin/v1/banks';
export const ADMIN_BANK_IMPORT_PATH = '/admin/v1/banks/import';
/** The published list's curated fields as a CSV file (the other half of a CSV round trip through `import?mode=curate`). */
export const ADMIN_BANK_EXPORT_PATH = '/admin/v1/banks/export';
export const ADMIN_BANK_VERSIONS_PATH = '/admin/v1/banks/versions';
export const ADMIN_BANK_VERSION_PATH = '/admin/v1/banks/versions/:n';
export const ADMIN_BANK_RESTORE_PATH = '/admin/v1/banks/versions/:n/restore';
export const ADMIN_BANK_ADMISSIONS_PATH = '/admin/v1/banks/admissions';
export const ADMIN_BANK_ADMIT_PATH = '/admin/v1/banks/admissions/admit';
export const ADMIN_BANK_EXCLUDE_PATH = '/admin/v1/banks/admissions/exclude';
export const ADMIN_BANK_UNEXCLUDE_PATH = '/admin/v1/banks/admissions/unexclude';
export const ADMIN_BANK_EXCLUSIONS_PATH = '/admin/v1/banks/exclusions';
export const ADMIN_BANK_EXCLUSION_PATH = '/admin/v1/banks/exclusions/:id';
export const ADMIN_BANK_SYNC_PATH = '/admin/v1/banks/sync';
export const ADMIN_BANK_PARTICIPANTS_PATH = '/admin/v1/banks/participants';
export const ADMIN_BANK_PARTICIPANTS_IMPORT_PATH = '/admin/v1/banks/participants/import';
export const ADMIN_BANK_PARTICIPANTS_SYNC_PATH = '/admin/v1/banks/participants/sync';
export const ADMIN_BANK_PROPOSALS_CONFIRM_PATH = '/admin/v1/banks/participants/proposals/confirm';
export const ADMIN_BANK_PROPOSALS_REJECT_PATH = '/admin/v1/banks/participants/proposals/reject';
export const ADMIN_BANK_SYNC_PREVIEW_PATH = '/admin/v1/banks/sync/preview';
export const ADMIN_BANK_SYNC_APPROVE_PATH = '/admin/v1/banks/sync/pending/:id/approve';
export const ADMIN_BANK_SYNC_REJECT_PATH = '/admin/v1/banks/sync/pending/:id/reject';
export const ADMIN_KEYS_PATH = '/admin/v1/keys';
export const ADMIN_KEY_ROTATE_PATH = '/admin/v1/keys/rotate';
export const ADMIN_KEY_REVOKE_PATH = '/admin/v1/keys/:kid/revoke';
export const ADMIN_AUDIT_PATH = '/admin/v1/audit';
export const ADMIN_PARTNER_ACTIVITY_PATH = '/admin/v1/partner-activity';
export const ADMIN_CREDENTIAL_ENDS_PATH = '/admin/v1/credential-ends';
export const ADMIN_REWARD_TYPES_PATH = '/admin/v1/reward-types';
export const ADMIN_PARTNER_JWKS_PATH = '/admin/v1/partners/:login/jwks';
export const ADMIN_PARTNER_CERTIFICATES_PATH = '/admin/v1/partners/:login/certificates';
/** A partner's webhook endpoints (issue 34): list, create; one endpoint: delete, rotate, its delivery log, replay. */
export const ADMIN_PARTNER_WEBHOOKS_PATH = '/admin/v1/partners/:login/webhooks';
export const ADMIN_PARTNER_USERS_PATH = '/admin/v1/partners/:login/users';
export const ADMIN_PARTNER_INVITATIONS_PATH = '/admin/v1/partners/:login/users/invitations';
export const ADMIN_PARTNER_USER_PATH = '/admin/v1/partners/:login/users/:id';
export const ADMIN_PARTNER_WEBHOOK_PATH = '/admin/v1/partners/:login/webhooks/:id';
export const ADMIN_PARTNER_WEBHOOK_ROTATE_PATH = '/admin/v1/partners/:login/webhooks/:id/rotate';
export const ADMIN_PARTNER_WEBHOOK_ATTEMPTS_PATH = '/admin/v1/partners/:login/webhooks/:id/attempts';
export const ADMIN_PARTNER_WEBHOOK_REPLAY_PATH = '/admin/v1/partners/:login/webhooks/:id/replay';
export const ADMIN_AUDIT_EXPORT_PATH = '/admin/v1/audit/export';
/** A consistent copy of the embedded database, taken while it serves (partner-gateway backup). */
export const ADMIN_BACKUP_PATH = '/admin/v1/backup';
export const ADMIN_OPERATORS_PATH = '/admin/v1/operators';
export const ADMIN_OPERATOR_PATH = '/admin/v1/operators/:id';
export const ADMIN_OPERATOR_TOKENS_PATH = '/admin/v1/operators/:id/tokens';
export const ADMIN_OPERATOR_TOKEN_PATH = '/admin/v1/operators/:id/tokens/:tokenId';
export const ADMIN_ME_PATH = '/admin/v1/me';
export const ADMIN_SESSION_PATH = '/admin/v1/session';
export const ADMIN_SIGN_IN_PATH = '/admin/v1/sign-in';
export const ADMIN_APPROVALS_PATH = '/admin/v1/approvals';
export const ADMIN_APPROVAL_PATH = '/admin/v1/approvals/:id';
export const ADMIN_APPROVAL_APPROVE_PATH = '/admin/v1/approvals/:id/approve';
export const ADMIN_APPROVAL_REJECT_PATH = '/admin/v1/approvals/:id/reject';
export const ADMIN_APPROVAL_SETTINGS_PATH = '/admin/v1/approvals/settings';
/** The console's single sign-on: the browser is sent here to start, and the identity provider sends it back to the callback. */
export const SSO_START_PATH = '/sso/start';
export const SSO_CALLBACK_PATH = '/sso/callback';

export const adminPartnerPath = (login: string) => `${ADMIN_PARTNERS_PATH}/${encodeURIComponent(login)}`;
export const adminBankPath = (bic: string) => `${ADMIN_BANKS_PATH}/${encodeURIComponent(bic)}`;
export const adminBankVersionPath = (n: number) => `${ADMIN_BANK_VERSIONS_PATH}/${n}`;
export const adminBankRestorePath = (n: number) => `${ADMIN_BANK_VERSIONS_PATH}/${n}/restore`;
export const adminBankSyncDecisionPath = (id: number, decision: 'approve' | 'reject') => `${ADMIN_BANK_SYNC_PATH}/pending/${id}/${decision}`;
export const adminBankExclusionPath = (id: number) => `${ADMIN_BANK_EXCLUSIONS_PATH}/${id}`;
export const adminKeyRevokePath = (kid: string) => `${ADMIN_KEYS_PATH}/${encodeURIComponent(kid)}/revoke`;
export const adminPartnerJwksPath = (login: string) => `${adminPartnerPath(login)}/jwks`;
export const adminPartnerCertificatesPath = (login: string) => `${adminPartnerPath(login)}/certificates`;
export const adminOperatorPath = (id: string) => `${ADMIN_OPERATORS_PATH}/${encodeURIComponent(id)}`;
export const adminOperatorTokensPath = (id: string) => `${adminOperatorPath(id)}/tokens`;
export const adminOperatorTokenPath = (id: string, tokenId: string) => `${adminOperatorTokensPath(id)}/${encodeURIComponent(tokenId)}`;
export const adminApprovalPath = (id: string) => `${ADMIN_APPROVALS_PATH}/${encodeURIComponent(id)}`;

/** OAuth 2.0 for partners without a shared secret (client credentials, RFC 6749 section 4.4). */
export const OAUTH_TOKEN_PATH = '/api/v1/oauth/token';
/** RFC 7662 token introspection. */
export const OAUTH_INTROSPECT_PATH = '/api/v1/oauth/introspect';
/** RFC 7009 token revocation. */
export const OAUTH_REVOKE_PATH = '/api/v1/oauth/revoke';
/** RFC 8414 authorization server metadata. */
export const OAUTH_METADATA_PATH = '/.well-known/oauth-authorization-server';
