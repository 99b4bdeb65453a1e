/** The addresses of both APIs' operations, written once for the server, the SDK, the CLI and the console. */

export const LOGIN_PATH = '/api/v1/login/';
export const REFRESH_PATH = '/api/v1/token/refresh/';
export const LOGOUT_PATH = '/api/v1/logout/';
export const JWKS_PATH = '/.well-known/jwks.json';
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
export const ADMIN_KEYS_PATH = '/admin/v1/keys';
export const ADMIN_KEY_ROTATE_PATH = '/admin/v1/keys/rotate';
export const ADMIN_KEY_REVOKE_PATH = '/admin/v1/keys/:kid/revoke';
export const ADMIN_AUDIT_PATH = '/admin/v1/audit';
export const ADMIN_PARTNER_ACTIVITY_PATH = '/admin/v1/partner-activity';

export const adminPartnerPath = (login: string) => `${ADMIN_PARTNERS_PATH}/${encodeURIComponent(login)}`;
export const adminBankPath = (bic: string) => `${ADMIN_BANKS_PATH}/${encodeURIComponent(bic)}`;
export const adminKeyRevokePath = (kid: string) => `${ADMIN_KEYS_PATH}/${encodeURIComponent(kid)}/revoke`;
