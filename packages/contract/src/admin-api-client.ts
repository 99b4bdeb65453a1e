import type { AdminBank, AdminBankList, BankInput, CsvSeparator, EditBankBody, ImportMode, ImportReport } from './admin-banks.js';
import type { BankListOutcome, BankVersionPage, BankVersionView } from './admin-bank-versions.js';
import type { BankSyncPreview, BankSyncRun, BankSyncRunView, BankSyncStatus } from './admin-bank-sync.js';
import type { AdmitBanksBody, BankAdmissionQueue, BankExclusion, BankExclusionList, BankExclusionOutcome } from './admin-bank-admissions.js';
import type { ParticipantsReport, ParticipantsRun, ParticipantsStatus, ProposalRejection } from './admin-bank-participants.js';
import type { CreateWebhookBody, ReplayWebhooksBody, ReplayWebhooksResult, RotateWebhookBody, WebhookAttemptList, WebhookEndpointCreated, WebhookEndpointList } from './admin-webhooks.js';
import type { AuditPage, AuditQuery } from './admin-audit.js';
import type { PartnerJwksView, SetPartnerJwksBody } from './admin-partner-keys.js';
import type { PartnerCertificatesView, SetPartnerCertificatesBody } from './admin-partner-certificates.js';
import type { ActivityResponse, CreatePartnerBody, PartnerList, PartnerView, RewardTypeCatalogue, UpdatePartnerBody } from './admin-partners.js';
import type { ApprovalSettings, ProposalList, ProposalQuery, ProposalView, RejectBody } from './admin-approvals.js';
import type {
  AdminIdentity,
  CreatedToken,
  CreateOperatorBody,
  CreateTokenBody,
  OperatorList,
  OperatorView,
  SessionView,
  SignInOptions,
  TokenList,
  TokenView,
  UpdateOperatorBody,
} from './admin-operators.js';
import { fillPath, withQuery, type AdminCallParts, type AdminEndpoint, type AdminTextAnswer, type AnswerOf } from './admin-endpoint.js';
import { ADMIN_ENDPOINTS, isEndpoint, type EndpointTree } from './admin-endpoints.js';
import {
  ADMIN_AUDIT_PATH,
  ADMIN_BANK_EXPORT_PATH,
  ADMIN_BACKUP_PATH,
  ADMIN_BANK_IMPORT_PATH,
  ADMIN_BANKS_PATH,
  ADMIN_PARTNER_ACTIVITY_PATH,
  ADMIN_PARTNERS_PATH,
  ADMIN_REWARD_TYPES_PATH,
  adminBankPath,
  adminBankRestorePath,
  adminBankVersionPath,
  ADMIN_BANK_VERSIONS_PATH,
  ADMIN_BANK_SYNC_PATH,
  ADMIN_BANK_PARTICIPANTS_IMPORT_PATH,
  ADMIN_BANK_PARTICIPANTS_PATH,
  ADMIN_BANK_PARTICIPANTS_SYNC_PATH,
  ADMIN_BANK_PROPOSALS_CONFIRM_PATH,
  ADMIN_BANK_PROPOSALS_REJECT_PATH,
  ADMIN_BANK_SYNC_PREVIEW_PATH,
  ADMIN_BANK_ADMISSIONS_PATH,
  ADMIN_BANK_ADMIT_PATH,
  ADMIN_BANK_EXCLUDE_PATH,
  ADMIN_BANK_UNEXCLUDE_PATH,
  ADMIN_BANK_EXCLUSIONS_PATH,
  adminBankExclusionPath,
  adminBankSyncDecisionPath,
  adminPartnerJwksPath,
  adminPartnerCertificatesPath,
  adminPartnerPath,
  ADMIN_APPROVAL_SETTINGS_PATH,
  ADMIN_APPROVALS_PATH,
  ADMIN_ME_PATH,
  ADMIN_OPERATORS_PATH,
  ADMIN_SESSION_PATH,
  ADMIN_SIGN_IN_PATH,
  adminApprovalPath,
  adminOperatorPath,
  adminOperatorTokenPath,
  adminOperatorTokensPath,
} from './paths.js';

/** One admin API request, as a transport sends it: a JSON body, or a file sent as it is with its type. */
export interface AdminRequest {
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  path: string;
  json?: unknown;
  file?: { bytes: unknown; contentType: string };
  /** The answer is a file, not JSON: the transport resolves with an AdminTextAnswer. */
  text?: true;
  /** The answer is a file: the transport resolves with its bytes (a Uint8Array) rather than parsed JSON. */
  binary?: boolean;
}


/**
 * Sends a request with the admin credential and resolves with the parsed JSON answer (undefined for a 204), or
 * rejects with the caller's own error for a refusal. A change that needs a second operator's approval answers
 * 202 with a proposal: each transport tells its caller so (the CLI prints the proposal, the console says where
 * it waits). The CLI's transport is Node's fetch with a personal token (or ADMIN_TOKEN); the console's is the
 * browser's fetch with the token of the tab or the session cookie.
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
/** The groups not yet declared as endpoints (ADMIN_ENDPOINTS): their methods written by hand. */
interface HandWrittenAdminApi {
  /**
   * The bank list. Every change is a new version; `baseVersion` (from `list()` or a preview) applies it only if
   * the list is still at that version (409 `bank_list_changed` otherwise).
   *
   * @example
   * ```ts
   * const preview = await admin.banks.import(file, { dryRun: true });
   * await admin.banks.import(file, { baseVersion: preview.baseVersion });
   * ```
   */
  banks: {
    list(): Promise<AdminBankList>;
    /** Replaces the whole list (maker-checker action `banks.replace`). */
    replace(banks: BankInput[], options?: BankChangeOptions): Promise<BankListOutcome>;
    add(bank: BankInput, options?: BankChangeOptions): Promise<AdminBank>;
    /** Curated fields (null clears) and `position` (1-based: move the bank there). */
    edit(bic: string, body: EditBankBody, options?: BankChangeOptions): Promise<BankListOutcome>;
    remove(bic: string, options?: BankChangeOptions): Promise<void>;
    /** Imports a JSON, CSV or ED807 file, merged unless `mode: 'replace'` with `confirm` (or `mode: 'curate'`: only the listed banks' curated fields); with `dryRun`, only reports what it would do. */
    import(
      file: { bytes: unknown; contentType: string },
      options?: BankChangeOptions & { mode?: ImportMode; confirm?: boolean; dryRun?: boolean; fileName?: string },
    ): Promise<ImportReport>;
    /**
     * The published list's curated fields as CSV (bic, name, nameEn, sbpMemberId; UTF-8 with a BOM, CRLF): edit it
     * in a spreadsheet and import it back with `mode: 'curate'`, which previews every changed field of every bank.
     */
    exportCsv(options?: { separator?: CsvSeparator }): Promise<AdminTextAnswer>;
    /** Versions, newest first; pass `nextCursor` for older ones. */
    versions(query?: { cursor?: string; limit?: number }): Promise<BankVersionPage>;
    version(n: number): Promise<BankVersionView>;
    /** A new version equal to version `n` (maker-checker action `banks.restore`); `dryRun` previews. */
    restore(n: number, options?: BankChangeOptions & { dryRun?: boolean }): Promise<BankListOutcome>;
  };
  /**
   * The registry sync (BANKS_SYNC_URL).
   *
   * @example
   * ```ts
   * const preview = await admin.bankSync.preview(); // every change, and holdReason when the guard would hold it
   * const run = await admin.bankSync.run(); // { outcome: 'applied', version: 9, ... }
   * const { pending } = await admin.bankSync.status();
   * if (pending) await admin.bankSync.approve(pending.id, 'the registry really dropped them');
   * ```
   */
  bankSync: {
    status(): Promise<BankSyncStatus>;
    preview(): Promise<BankSyncPreview>;
    run(): Promise<BankSyncRunView>;
    approve(id: number, comment?: string): Promise<BankSyncRunView>;
    reject(id: number, comment?: string): Promise<BankSyncRun>;
  };
  /**
   * The review queue of new registry banks and the exclusions (issue 34). Every change is a checked action.
   *
   * @example
   * ```ts
   * const { banks } = await admin.bankAdmissions.queue();
   * await admin.bankAdmissions.admit(banks.filter((bank) => bank.state === 'pending').slice(0, 20).map(({ bic }) => ({ bic })));
   * await admin.bankAdmissions.exclude(['044525444'], 'wallets only');
   * ```
   */
  bankAdmissions: {
    queue(): Promise<BankAdmissionQueue>;
    /** Appends queued banks at the end as one version, each under `name` or its suggested name. */
    admit(banks: AdmitBanksBody['banks'], options?: BankChangeOptions): Promise<BankListOutcome>;
    exclude(bics: string[], reason: string): Promise<BankExclusionOutcome>;
    unexclude(bics: string[]): Promise<BankExclusionOutcome>;
    exclusions(): Promise<BankExclusionList>;
    /** A name rule: whole words of a registry name, in order. */
    addRule(value: string, reason: string): Promise<BankExclusion>;
    removeExclusion(id: number): Promise<void>;
  };
  /**
   * The settlement bank's B2C participant list (issue 34): member ids by BIC, name matches to confirm.
   *
   * @example
   * ```ts
   * const preview = await admin.bankParticipants.import(file, { dryRun: true }); // matching, proposals, unmatched
   * await admin.bankParticipants.import(file, { baseVersion: preview.baseVersion });
   * await admin.bankParticipants.confirm(preview.proposals.map((proposal) => proposal.bic));
   * ```
   */
  bankParticipants: {
    status(): Promise<ParticipantsStatus>;
    /** Imports a JSON or CSV list; with `dryRun`, only reports what it would do. */
    import(file: { bytes: unknown; contentType: string }, options?: BankChangeOptions & { dryRun?: boolean; fileName?: string }): Promise<ParticipantsReport>;
    /** Reads BANKS_PARTICIPANTS_URL now. */
    sync(): Promise<ParticipantsRun>;
    confirm(bics: string[], options?: BankChangeOptions): Promise<BankListOutcome>;
    reject(bics: string[]): Promise<ProposalRejection>;
  };

  audit: {
    query(query: AuditQuery): Promise<AuditPage>;
  };
}

export type AdminApi = ClientOf<typeof ADMIN_ENDPOINTS> & HandWrittenAdminApi;

export function createAdminApi(send: AdminTransport): AdminApi {
  const call = <T>(request: AdminRequest) => send(request) as Promise<T>;
  return {
    ...clientOf(ADMIN_ENDPOINTS, send),
    banks: {
      list: () => call({ method: 'GET', path: ADMIN_BANKS_PATH }),
      replace: (banks, options = {}) => call({ method: 'PUT', path: withQuery(ADMIN_BANKS_PATH, changeQuery(options)), json: { banks } }),
      add: (bank, options = {}) => call({ method: 'POST', path: withQuery(ADMIN_BANKS_PATH, changeQuery(options)), json: bank }),
      edit: (bic, body, options = {}) => call({ method: 'PATCH', path: withQuery(adminBankPath(bic), changeQuery(options)), json: body }),
      remove: (bic, options = {}) => call({ method: 'DELETE', path: withQuery(adminBankPath(bic), changeQuery(options)) }),
      import: (file, options = {}) =>
        call({
          method: 'POST',
          path: withQuery(ADMIN_BANK_IMPORT_PATH, {
            mode: options.mode,
            confirm: options.confirm ? 'true' : undefined,
            dryRun: options.dryRun ? 'true' : undefined,
            fileName: options.fileName,
            ...changeQuery(options),
          }),
          file,
        }),
      exportCsv: (options = {}) => call({ method: 'GET', path: withQuery(ADMIN_BANK_EXPORT_PATH, { separator: options.separator }), text: true }),
      versions: (query = {}) => call({ method: 'GET', path: withQuery(ADMIN_BANK_VERSIONS_PATH, { cursor: query.cursor, limit: query.limit === undefined ? undefined : String(query.limit) }) }),
      version: (n) => call({ method: 'GET', path: adminBankVersionPath(n) }),
      restore: (n, options = {}) => call({ method: 'POST', path: withQuery(adminBankRestorePath(n), { ...changeQuery(options), dryRun: options.dryRun ? 'true' : undefined }) }),
    },
    bankSync: {
      status: () => call({ method: 'GET', path: ADMIN_BANK_SYNC_PATH }),
      preview: () => call({ method: 'POST', path: ADMIN_BANK_SYNC_PREVIEW_PATH }),
      run: () => call({ method: 'POST', path: ADMIN_BANK_SYNC_PATH }),
      approve: (id, comment) => call({ method: 'POST', path: withQuery(adminBankSyncDecisionPath(id, 'approve'), { comment }) }),
      reject: (id, comment) => call({ method: 'POST', path: withQuery(adminBankSyncDecisionPath(id, 'reject'), { comment }) }),
    },
    bankAdmissions: {
      queue: () => call({ method: 'GET', path: ADMIN_BANK_ADMISSIONS_PATH }),
      admit: (banks, options = {}) => call({ method: 'POST', path: withQuery(ADMIN_BANK_ADMIT_PATH, changeQuery(options)), json: { banks } }),
      exclude: (bics, reason) => call({ method: 'POST', path: ADMIN_BANK_EXCLUDE_PATH, json: { bics, reason } }),
      unexclude: (bics) => call({ method: 'POST', path: ADMIN_BANK_UNEXCLUDE_PATH, json: { bics } }),
      exclusions: () => call({ method: 'GET', path: ADMIN_BANK_EXCLUSIONS_PATH }),
      addRule: (value, reason) => call({ method: 'POST', path: ADMIN_BANK_EXCLUSIONS_PATH, json: { value, reason } }),
      removeExclusion: (id) => call({ method: 'DELETE', path: adminBankExclusionPath(id) }),
    },
    bankParticipants: {
      status: () => call({ method: 'GET', path: ADMIN_BANK_PARTICIPANTS_PATH }),
      import: (file, options = {}) =>
        call({ method: 'POST', path: withQuery(ADMIN_BANK_PARTICIPANTS_IMPORT_PATH, { dryRun: options.dryRun ? 'true' : undefined, fileName: options.fileName, ...changeQuery(options) }), file }),
      sync: () => call({ method: 'POST', path: ADMIN_BANK_PARTICIPANTS_SYNC_PATH }),
      confirm: (bics, options = {}) => call({ method: 'POST', path: withQuery(ADMIN_BANK_PROPOSALS_CONFIRM_PATH, changeQuery(options)), json: { bics } }),
      reject: (bics) => call({ method: 'POST', path: ADMIN_BANK_PROPOSALS_REJECT_PATH, json: { bics } }),
    },
  };
}

/** The client of a tree of endpoint declarations: each endpoint a method taking its `send`'s arguments. */
export type ClientOf<T> = {
  [K in keyof T]: T[K] extends AdminEndpoint ? (...args: Parameters<T[K]['send']>) => Promise<AnswerOf<T[K]>> : ClientOf<T[K]>;
};

/** The request a call of `endpoint` sends, from the parts its `send` built. */
export function requestOf(endpoint: AdminEndpoint, parts: AdminCallParts): AdminRequest {
  return {
    method: endpoint.method,
    path: withQuery(fillPath(endpoint.path, parts.params), parts.query),
    ...(parts.body !== undefined ? { json: parts.body } : {}),
    ...(parts.file !== undefined ? { file: parts.file } : {}),
    ...(endpoint.answerAs === 'text' ? { text: true as const } : {}),
    ...(endpoint.answerAs === 'binary' ? { binary: true } : {}),
  };
}

/** The generic client of a tree: every method sends its endpoint's request through `send`. */
export function clientOf<T extends EndpointTree>(tree: T, send: AdminTransport): ClientOf<T> {
  const client: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(tree)) {
    client[name] = isEndpoint(value) ? (...args: never[]) => send(requestOf(value, value.send(...args))) : clientOf(value, send);
  }
  return client as ClientOf<T>;
}

/** What every change of the bank list may carry: the version it was previewed on, and a comment for the history. */
export interface BankChangeOptions {
  baseVersion?: number;
  comment?: string;
}

function changeQuery(options: BankChangeOptions): Record<string, string | undefined> {
  return { baseVersion: options.baseVersion === undefined ? undefined : String(options.baseVersion), comment: options.comment };
}
