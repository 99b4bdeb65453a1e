import type { AdminBank, AdminBankList, BankChanges, BankInput, ImportMode, ImportReport } from './admin-banks.js';
import type { AuditPage, AuditQuery } from './admin-audit.js';
import type { KeyList, KeyUse, KeyView } from './admin-keys.js';
import type { PartnerJwksView, SetPartnerJwksBody } from './admin-partner-keys.js';
import type { PartnerCertificatesView, SetPartnerCertificatesBody } from './admin-partner-certificates.js';
import type { ActivityResponse, CreatePartnerBody, PartnerList, PartnerView, UpdatePartnerBody } from './admin-partners.js';
import {
  ADMIN_AUDIT_PATH,
  ADMIN_BANK_IMPORT_PATH,
  ADMIN_BANKS_PATH,
  ADMIN_KEY_ROTATE_PATH,
  ADMIN_KEYS_PATH,
  ADMIN_PARTNER_ACTIVITY_PATH,
  ADMIN_PARTNERS_PATH,
  adminBankPath,
  adminKeyRevokePath,
  adminPartnerJwksPath,
  adminPartnerCertificatesPath,
  adminPartnerPath,
} from './paths.js';

/** One admin API request, as a transport sends it: a JSON body, or a file sent as it is with its type. */
export interface AdminRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  json?: unknown;
  file?: { bytes: unknown; contentType: string };
}

/**
 * Sends a request with the admin bearer token and resolves with the parsed JSON answer (undefined for a
 * 204), or rejects with the caller's own error for a refusal. The CLI's transport is Node's fetch with the
 * token from ADMIN_TOKEN; the console's is the browser's fetch with the token of the tab.
 */
export type AdminTransport = (request: AdminRequest) => Promise<unknown>;

/**
 * The admin API, typed by the contract: the one client the CLI and the console call it through.
 *
 * @example
 * ```ts
 * const admin = createAdminApi(transport);
 * const partner = await admin.partners.update('acme', { status: 'blocked' });
 * ```
 */
export interface AdminApi {
  partners: {
    list(): Promise<PartnerList>;
    get(login: string): Promise<PartnerView>;
    create(body: CreatePartnerBody): Promise<PartnerView>;
    update(login: string, body: UpdatePartnerBody): Promise<PartnerView>;
    remove(login: string): Promise<void>;
    /**
     * Registers the partner's public keys, or the https URL of its JWK Set, replacing what it had
     * (PUT /admin/v1/partners/{login}/jwks); refused keys are a 422 naming each one.
     *
     * @example
     * ```ts
     * await admin.partners.setJwks('acme', { jwksUri: 'https://acme.example/.well-known/jwks.json' });
     * ```
     */
    setJwks(login: string, body: SetPartnerJwksBody): Promise<PartnerJwksView>;
    /** Removes the partner's public keys (DELETE /admin/v1/partners/{login}/jwks, 204). */
    deleteJwks(login: string): Promise<void>;
    /**
     * Registers the partner's client certificates (self_signed_tls_client_auth) or its subject DN (tls_client_auth)
     * (PUT /admin/v1/partners/{login}/certificates); an expired certificate, a non-certificate or a private key is a 422.
     *
     * @example
     * ```ts
     * await admin.partners.setCertificates('acme', { subjectDn: 'CN=acme-payouts,O=Acme,C=RU' });
     * ```
     */
    setCertificates(login: string, body: SetPartnerCertificatesBody): Promise<PartnerCertificatesView>;
    /** Removes the partner's certificates and subject DN (DELETE /admin/v1/partners/{login}/certificates, 204). */
    deleteCertificates(login: string): Promise<void>;
    /** The last successful partner API call of each login. */
    activity(logins: readonly string[]): Promise<ActivityResponse>;
  };
  banks: {
    list(): Promise<AdminBankList>;
    replace(banks: BankInput[]): Promise<BankChanges>;
    add(bank: BankInput): Promise<AdminBank>;
    remove(bic: string): Promise<void>;
    /** Imports a JSON, CSV or ED807 file; with `dryRun`, only reports what it would do. */
    import(file: { bytes: unknown; contentType: string }, options?: { mode?: ImportMode; dryRun?: boolean }): Promise<ImportReport>;
  };
  keys: {
    list(): Promise<KeyList>;
    rotate(use: KeyUse): Promise<KeyView>;
    /** Drops a key at once (POST /admin/v1/keys/{kid}/revoke). */
    revoke(kid: string): Promise<KeyView>;
  };
  audit: {
    query(query: AuditQuery): Promise<AuditPage>;
  };
}

export function createAdminApi(send: AdminTransport): AdminApi {
  const call = <T>(request: AdminRequest) => send(request) as Promise<T>;
  return {
    partners: {
      list: () => call({ method: 'GET', path: ADMIN_PARTNERS_PATH }),
      get: (login) => call({ method: 'GET', path: adminPartnerPath(login) }),
      create: (body) => call({ method: 'POST', path: ADMIN_PARTNERS_PATH, json: body }),
      update: (login, body) => call({ method: 'PATCH', path: adminPartnerPath(login), json: body }),
      remove: (login) => call({ method: 'DELETE', path: adminPartnerPath(login) }),
      setJwks: (login, body) => call({ method: 'PUT', path: adminPartnerJwksPath(login), json: body }),
      deleteJwks: (login) => call({ method: 'DELETE', path: adminPartnerJwksPath(login) }),
      setCertificates: (login, body) => call({ method: 'PUT', path: adminPartnerCertificatesPath(login), json: body }),
      deleteCertificates: (login) => call({ method: 'DELETE', path: adminPartnerCertificatesPath(login) }),
      activity: (logins) => call({ method: 'GET', path: withQuery(ADMIN_PARTNER_ACTIVITY_PATH, { logins: logins.join(',') }) }),
    },
    banks: {
      list: () => call({ method: 'GET', path: ADMIN_BANKS_PATH }),
      replace: (banks) => call({ method: 'PUT', path: ADMIN_BANKS_PATH, json: { banks } }),
      add: (bank) => call({ method: 'POST', path: ADMIN_BANKS_PATH, json: bank }),
      remove: (bic) => call({ method: 'DELETE', path: adminBankPath(bic) }),
      import: (file, options = {}) =>
        call({
          method: 'POST',
          path: withQuery(ADMIN_BANK_IMPORT_PATH, { mode: options.mode, dryRun: options.dryRun ? 'true' : undefined }),
          file,
        }),
    },
    keys: {
      list: () => call({ method: 'GET', path: ADMIN_KEYS_PATH }),
      rotate: (use) => call({ method: 'POST', path: ADMIN_KEY_ROTATE_PATH, json: { use } }),
      revoke: (kid) => call({ method: 'POST', path: adminKeyRevokePath(kid) }),
    },
    audit: {
      query: (query) => call({ method: 'GET', path: withQuery(ADMIN_AUDIT_PATH, query) }),
    },
  };
}

/**
 * A path with query parameters, leaving out the empty ones.
 *
 * @example
 * ```ts
 * withQuery('/admin/v1/audit', { partner: 'acme', reason: '' }); // '/admin/v1/audit?partner=acme'
 * ```
 */
export function withQuery(path: string, query: Record<string, string | undefined>): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined && value !== '') search.set(name, value);
  const text = search.toString();
  return text ? `${path}?${text}` : path;
}
