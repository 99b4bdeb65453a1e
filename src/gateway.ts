import type { X509Certificate } from 'node:crypto';
import { JWKS_PATH, LOGIN_PATH, LOGOUT_PATH, OAUTH_INTROSPECT_PATH, OAUTH_REVOKE_PATH, OAUTH_TOKEN_PATH, REFRESH_PATH, banksPath } from '@partner-gateway/contract/paths';
import type { AuditModule } from './audit/audit-module.js';
import { createAudit } from './audit/audit-module.js';
import { createApprovalsModule } from './approvals/approvals-module.js';
import type { Approvals } from './approvals/approvals.js';
import { createOperatorAuthentication, type OperatorAuthentication } from './auth/steps/authenticate-operator.js';
import type { RetentionReport } from './audit/audit-retention.js';
import type { AuditWriter } from './audit/audit-writer.js';
import { createAuth } from './auth/auth-module.js';
import { ASSERTION_CLOCK_TOLERANCE_SECONDS, MAX_ASSERTION_LIFETIME_SECONDS } from './auth/credentials/authenticate-with-assertion.js';
import type { BankAdmin } from './banks/bank-admin.js';
import type { Bank } from './banks/bank.js';
import { createBanks } from './banks/banks-module.js';
import { scheduledSyncEntry } from './audit/scheduled-sync-entry.js';
import { ssoStatusEntry } from './audit/sso-status-entry.js';
import { registryFetcher } from './banks/sync/fetch-registry-source.js';
import type { BankSync } from './banks/sync/bank-sync.js';
import { publicUrl, tokenIssuer, type Config } from './config.js';
import { backupPglite, type DatabaseHandle } from './db/database.js';
import { errors } from './errors.js';
import { CHECK_TIMEOUT_MS, checkDependencies, readinessOf } from './health/dependency-health.js';
import type { ReadinessReport } from '@partner-gateway/contract/public-api';
import type { GatewayEvents } from './gateway-events.js';
import { createKeys, type KeysModule } from './keys/keys-module.js';
import { createGatewayMetrics, type GatewayMetrics } from './metrics/gateway-metrics.js';
import { publicTlsUrl } from './mtls/tls-config.js';
import { bankActions } from './operations/checked-actions/bank-actions.js';
import { bankEditActions } from './operations/checked-actions/bank-edit-actions.js';
import { bankAdmissionActions } from './operations/checked-actions/bank-admission-actions.js';
import { bankParticipantActions } from './operations/checked-actions/bank-participant-actions.js';
import { participantsFetcher } from './banks/participants/fetch-participants.js';
import type { FetchedList, ParticipantsSync } from './banks/participants/participants-sync.js';
import type { BankParticipants } from './banks/participants/bank-participants.js';
import { scheduledParticipantsEntry } from './audit/scheduled-sync-entry.js';
import type { BankAdmissions } from './banks/admission/bank-admissions.js';
import { keyActions } from './operations/checked-actions/key-actions.js';
import { operatorActions } from './operations/checked-actions/operator-actions.js';
import { partnerActions } from './operations/checked-actions/partner-actions.js';
import { createOAuthApi, type OAuthApi } from './operations/oauth-api.js';
import type { ConsoleSessions } from './operators/console-sessions.js';
import type { OperatorAdmin } from './operators/operator-admin.js';
import { createOperators } from './operators/operators-module.js';
import type { SsoSignIn } from './operators/sso/sso-sign-in.js';
import { createPartnerApi, type PartnerApi } from './operations/partner-api.js';
import { createSelfServiceApi, type SelfServiceApi } from './operations/self-service-api.js';
import { addressKey } from './partners/ip-allowlist.js';
import type { PartnerAdmin } from './partners/partner-admin.js';
import type { PartnerCertificateAdmin } from './partners/partner-certificate-admin.js';
import type { PartnerKeyAdmin } from './partners/partner-key-admin.js';
import { argon2Verifications } from './partners/password-hasher.js';
import { createPartners, type PartnersModule } from './partners/partners-module.js';
import { createSharedStores } from './stores/shared-stores.js';
import { throttlePolicyOf } from './stores/throttle/throttle-policy.js';
import type { WebhookAdmin } from './webhooks/webhook-admin.js';
import { createWebhooks } from './webhooks/webhooks-module.js';
import { createPartnerUsers, type PartnerUsers } from './partner-users/partner-users-module.js';
import { createPortalApi, type PortalApi } from './operations/portal-api.js';
import { purgeThrottle } from './stores/throttle/throttle-store.js';

/**
 * What the HTTP layer (and the process around it) calls into, wired once from the configuration and the
 * database: operations, never the stores behind them. Built by `src/server.ts` for the real service and by the
 * tests for each backend.
 */
export interface Gateway {
  config: Config;
  /** Login, refresh, logout, banks and the JWKS. */
  partnerApi: PartnerApi;
  /** The OAuth 2.0 endpoints: client credentials, introspection, revocation and the server metadata. */
  oauth: OAuthApi;
  /** The self-service API (`/api/v1/self/…`): a partner's own keys, calls and usage, with a token of scope `self`. */
  selfService: SelfServiceApi;
  /** The partner portal's own calls (`/portal/api/…`): invitations, passkeys, sessions (docs/portal-security.md). */
  portal: PortalApi;
  /** What the admin API does: partners, banks, keys, the audit trail, operators and maker-checker. */
  admin: AdminOperations;
  /** Who acts on the admin API: operators' personal tokens and console sessions (ADMIN_TOKEN is the admin app's). */
  operatorAuth: OperatorAuthentication;
  /** The console's single sign-on; undefined unless OIDC_ISSUER is set. */
  sso: SsoSignIn | undefined;
  runtime: GatewayRuntime;
}

export interface AdminOperations {
  partners: PartnerAdmin;
  /** A partner's public keys for private_key_jwt (a partner sub-resource: set, remove). */
  partnerKeys: PartnerKeyAdmin;
  /** A partner's client certificates and subject DN (mutual TLS; a partner sub-resource: set, remove). */
  partnerCertificates: PartnerCertificateAdmin;
  /** The partners' credentials that stop working by themselves soon (keys, certificates, replaced passwords). */
  credentialEnds: PartnersModule['credentialEnds'];
  banks: BankAdmin;
  /** The bank registry sync: run now, preview, status, approve or reject a held run. */
  bankSync: BankSync;
  /** The review queue of new registry banks and the exclusions, to read: every change is a checked action (banks.admit, banks.exclude...). */
  bankAdmissions: Pick<BankAdmissions, 'queue' | 'exclusions'>;
  /** The participant list: its status and proposals to read, a preview of an import, a sync run now; every change is a checked action (banks.participants.*). */
  bankParticipants: Pick<BankParticipants, 'status' | 'importFile'> & Pick<ParticipantsSync, 'run'>;
  keys: KeysModule['admin'];
  audit: AuditModule['admin'];
  operators: OperatorAdmin;
  /** Console sessions: signing out. */
  sessions: ConsoleSessions;
  /**
   * Maker-checker: every checked change is submitted here (made at once, or held as a proposal), and proposals
   * are listed, approved and rejected. Its registry holds the checked actions.
   */
  approvals: Approvals;
  /** Partners' webhook endpoints: list, create, delete, rotate, delivery log, replay. */
  webhooks: WebhookAdmin;
  /** Partners' people in the portal: list them, invite one. */
  partnerUsers: PartnerUsers['admin'];
  /** A consistent copy of the embedded database (backupPglite); refused (backup_not_embedded) on PostgreSQL. */
  backup(): Promise<Blob>;
}

export interface GatewayRuntime {
  /** What `GET /metrics` on the admin listener renders; both listeners record their requests in it. */
  metrics: GatewayMetrics;
  /** Where the HTTP layer records each audited call. */
  auditTrail: AuditWriter;
  now(): number;
  /**
   * Each dependency's state, asked now (each within a second): `not_ready` without the database, `degraded`
   * without Redis (served from the database meanwhile), else `ready`.
   */
  readiness(): Promise<ReadinessReport>;
  /**
   * Makes version 1 of the bank list once: `banks` on an empty table (true), or the list as found on a database
   * that had one before versions existed (false); nothing once a version exists.
   */
  seedBanks(banks: readonly Bank[]): Promise<boolean>;
  /** The scheduled registry sync's check (BANKS_SYNC_URL): a run when one is due and no other instance runs one. */
  syncBanksIfDue(): Promise<unknown>;
  /** The participant list sync's check (BANKS_PARTICIPANTS_URL): a run when one is due and no other instance runs one. */
  syncParticipantsIfDue(): Promise<unknown>;
  /** Deletes rows nobody can use any more: spent JWE ids, expired token families, old throttle counters, ended console sessions. */
  purgeExpired(): Promise<void>;
  /** One webhook dispatch pass now: new bank list versions made into events, due deliveries sent (also every WEBHOOK_POLL_MS). */
  deliverWebhooks(): Promise<void>;
  /** Writes operators' last-use times noted so far (they are written every 15 s by themselves). */
  flushOperatorUsage(): Promise<void>;
  /** One audit maintenance run now (partitions ahead, AUDIT_RETENTION_DAYS); it also runs every 15 minutes. */
  maintainAudit(): Promise<RetentionReport>;
  /** Drains the audit trail (trying for up to `timeoutMs`) and closes Redis and the change feed (the database handle is the caller's). */
  close(timeoutMs?: number): Promise<void>;
}

export interface GatewayOptions {
  /** The key that seals private keys at rest (see resolveMasterKey). */
  masterKey: Buffer;
  now?: () => number;
  /** Told of what the gateway survives on its own and what it loses (see GatewayEvent); nothing by default. */
  events?: GatewayEvents;
  /**
   * TLS_CLIENT_CA_FILE's CAs as last (re)loaded (`tlsFiles.trustedCas`), asked on every tls_client_auth check so
   * that a SIGHUP reload counts from the next request; none when unset (tls_client_auth then always fails).
   */
  trustedCas?: () => readonly X509Certificate[];
  /** Downloads BANKS_SYNC_URL (a test may pass its own resolver's fetcher); registryFetcher by default. */
  fetchBankRegistry?: (url: string) => Promise<Uint8Array>;
  /** Downloads BANKS_PARTICIPANTS_URL; participantsFetcher by default. */
  fetchParticipants?: (url: string) => Promise<FetchedList>;
}

/** How long closing waits for the replay journal to be written down. */
const JOURNAL_DRAIN_MS = 2_000;

/**
 * Composes the gateway from its modules (partners, banks, keys, audit, the shared stores, auth), each of which
 * wires itself and subscribes to the change feed, and builds the partner API, the OAuth endpoints and the admin
 * operations over them.
 *
 * @example
 * ```ts
 * const gateway = await createGateway(loadConfig(process.env), await openDatabase({ dataDir: './data' }), { masterKey });
 * const app = await buildApp({ gateway, logger });
 * ```
 */
export async function createGateway(config: Config, handle: DatabaseHandle, options: GatewayOptions): Promise<Gateway> {
  const now = options.now ?? Date.now;
  const events = options.events ?? (() => {});
  const feed = handle.changeFeed((error) => events({ type: 'change_feed_failed', error }));
  // Made first, so that it times every query and Redis command; its other sources are read at scrape time only.
  const metrics = createGatewayMetrics({
    caches: {
      partners: () => partners.repository.stats(),
      token_families: () => auth.families.stats(),
      banks: () => banks.catalog.stats(),
      passwords: () => partners.passwords.stats().remembered,
    },
    pool: () => handle.poolStats(),
    auditPending: () => audit.writer.pending(),
    auditDropped: () => audit.writer.dropped(),
    auditTable: () => {
      const last = audit.lastMaintenance();
      return last ? { oldestAt: last.oldestAt, partitions: last.partitions } : undefined;
    },
    replayConflicts: () => stores.replayConflicts(),
    replayJournalDropped: () => stores.replayJournalDropped(),
    argon2: () => ({ ...partners.passwords.stats(), verifications: argon2Verifications() }),
    expiringCertificates: () => partners.expiringCertificates(),
    endingCredentials: () => partners.endingCredentials(),
    bankSync: () => banks.sync.figures(),
    dependencies: () => checkDependencies(dependencyChecks),
    webhooks: () => webhooks.figures(),
  });
  const stopObservingQueries = handle.observeQueries((operation, failed, seconds) => metrics.observeDatabaseQuery(operation, failed, seconds));
  const partners = createPartners(handle.db, feed, config, now);
  const keys = await createKeys(handle.db, feed, config, options.masterKey, now);
  const audit = createAudit(handle.db, config, now, events);
  const banks = createBanks(handle.db, feed, config, now, {
    kind: handle.kind,
    fetchSource: options.fetchBankRegistry ?? registryFetcher({ production: config.NODE_ENV === 'production', maxBytes: config.BANKS_IMPORT_MAX_BYTES }),
    onRun: (run) => {
      if (run.outcome === 'failed') events({ type: 'bank_sync_failed', source: run.source, problem: run.error ?? '' });
      // A run an operator started is audited by its request; a scheduled one has no request, so it is audited here.
      if (run.trigger === 'schedule') audit.writer.record(scheduledSyncEntry(run, now()));
    },
    fetchParticipants: options.fetchParticipants ?? participantsFetcher({ production: config.NODE_ENV === 'production', maxBytes: config.BANKS_IMPORT_MAX_BYTES }),
    onParticipantsRun: (run) => {
      if (run.outcome === 'failed') events({ type: 'participants_sync_failed', source: run.source ?? '', problem: run.error ?? '' });
      if (run.trigger === 'schedule') audit.writer.record(scheduledParticipantsEntry(run, now()));
    },
  });
  const webhooks = createWebhooks(handle.db, feed, config, partners.repository, options.masterKey, now, (error) => events({ type: 'webhook_dispatch_failed', error }));
  const throttlePolicy = throttlePolicyOf(config);
  const stores = createSharedStores(config, handle, feed, throttlePolicy, {
    now,
    events,
    acceptanceWindowMs: acceptanceWindowMs(config),
    onRedisCommand: (command, failed, seconds) => metrics.observeRedisCommand(command, failed, seconds),
  });
  const dependencyChecks = { database: () => handle.ping(CHECK_TIMEOUT_MS), redis: stores.pingRedis };
  const urls = publicUrls(config);
  const partnerUsers = createPartnerUsers(handle.db, {
    publicUrl: publicUrl(config),
    masterKey: options.masterKey,
    maxAgeMs: config.SESSION_MAX_AGE * 1000,
    idleMs: config.SESSION_IDLE_TIMEOUT * 1000,
    now,
    partners: partners.repository,
  });
  // Single sign-on disabling or enabling an operator has no request of its own to be audited by: audited here.
  const operators = createOperators(handle.db, feed, config, now, events, {
    statusChanged: (change) => audit.writer.record(ssoStatusEntry(change, now())),
    // Pending sign-ins are counted as failures are: one IPv6 customer holds a /64, not one address.
    addressKey,
  });
  const { registry, approvals } = createApprovalsModule(handle.db, feed, config, now);
  const removalLimits = { maxRemovals: config.BANKS_SYNC_MAX_REMOVALS, minBanks: config.BANKS_SYNC_MIN_BANKS };
  registry.register(...partnerActions(partners.admin, partners.keyAdmin, partners.certificateAdmin), ...keyActions(keys.admin), ...operatorActions(operators.admin), ...bankActions(banks.admin, removalLimits), ...bankEditActions(banks.admin, removalLimits), ...bankAdmissionActions(banks.admissions), ...bankParticipantActions(banks.participants));
  const auth = createAuth({ config, db: handle.db, feed, partners, keys: keys.store, stores, tokenEndpoint: urls.token, trustedCas: options.trustedCas, masterKey: options.masterKey, now });
  const paths = { login: LOGIN_PATH, refresh: REFRESH_PATH, logout: LOGOUT_PATH, banks: banksPath(config.PROVIDER_SEGMENT), token: OAUTH_TOKEN_PATH };
  return {
    config,
    partnerApi: createPartnerApi({ ...auth, banks: banks.catalog, keys: keys.store, paths }),
    oauth: createOAuthApi({ ...auth, paths, urls, metrics }),
    selfService: createSelfServiceApi({ ...auth, partners: partners.repository, requestLog: audit.requestLog, webhooks: webhooks.admin, portal: partnerUsers.signIn, people: partnerUsers.people }),
    portal: createPortalApi({ signIn: partnerUsers.signIn }),
    admin: {
      partners: partners.admin,
      partnerKeys: partners.keyAdmin,
      partnerCertificates: partners.certificateAdmin,
      credentialEnds: (query) => partners.credentialEnds(query),
      banks: banks.admin,
      bankSync: banks.sync,
      bankAdmissions: { queue: () => banks.admissions.queue(), exclusions: () => banks.admissions.exclusions() },
      bankParticipants: { status: () => banks.participants.status(), importFile: (...args) => banks.participants.importFile(...args), run: (author) => banks.participantsSync.run(author) },
      keys: keys.admin,
      audit: audit.admin,
      operators: operators.admin,
      sessions: operators.sessions,
      approvals,
      webhooks: webhooks.admin,
      partnerUsers: partnerUsers.admin,
      backup: async () => (await backupPglite(handle)) ?? Promise.reject(errors.backupNotEmbedded()),
    },
    operatorAuth: createOperatorAuthentication({ credentials: operators.credentials, throttle: stores.throttle, now }),
    sso: operators.sso,
    runtime: {
      metrics,
      auditTrail: audit.writer,
      now,
      readiness: async () => readinessOf(await checkDependencies(dependencyChecks)),
      seedBanks: (list) => banks.seed(list),
      syncBanksIfDue: () => banks.sync.tick(),
      syncParticipantsIfDue: () => banks.participantsSync.tick(),
      maintainAudit: () => audit.maintain(),
      async purgeExpired() {
        const at = now();
        await stores.replay.purgeExpired(new Date(at));
        await auth.families.purgeExpired(new Date(at));
        await purgeThrottle(handle.db, throttlePolicy, at);
        await operators.purgeExpired();
        await banks.purgeVersions();
        await webhooks.purge();
        await partnerUsers.purge();
      },
      deliverWebhooks: () => webhooks.dispatcher.tick(),
      flushOperatorUsage: () => operators.flushUsage(),
      async close(timeoutMs) {
        stopObservingQueries();
        try {
          await webhooks.close();
          await operators.close().catch((error: unknown) => events({ type: 'operator_usage_write_failed', error }));
          await audit.close(timeoutMs);
        } finally {
          await stores.close(JOURNAL_DRAIN_MS).catch((error: unknown) => events({ type: 'close_failed', error }));
          await feed.close();
        }
      },
    },
  };
}

/**
 * The longest a single-use credential stays acceptable, in ms: a JWE or a DPoP proof from its `iat` pre-dated
 * by JWE_MAX_FUTURE until JWE_MAX_AGE after it, a client assertion from its first use until its `exp` (at most
 * the lifetime allowed ahead) plus the clock tolerance. The replay store's double-check window after a Redis
 * failure, and how long a loss of replay state goes on refusing credentials issued before it.
 */
function acceptanceWindowMs(config: Config): number {
  const jwe = config.JWE_MAX_AGE + config.JWE_MAX_FUTURE + 1;
  const assertion = MAX_ASSERTION_LIFETIME_SECONDS + 2 * ASSERTION_CLOCK_TOLERANCE_SECONDS + 1;
  return Math.max(jwe, assertion) * 1000;
}

/** The public URLs the OAuth metadata names: PUBLIC_URL's, and the HTTPS listener's (RFC 8705 aliases) when there is one. */
function publicUrls(config: Config) {
  const base = publicUrl(config);
  const tlsBase = publicTlsUrl(config);
  return {
    issuer: tokenIssuer(config),
    token: base + OAUTH_TOKEN_PATH,
    introspection: base + OAUTH_INTROSPECT_PATH,
    revocation: base + OAUTH_REVOKE_PATH,
    jwks: base + JWKS_PATH,
    mtls: tlsBase === undefined ? undefined : { token: tlsBase + OAUTH_TOKEN_PATH, introspection: tlsBase + OAUTH_INTROSPECT_PATH, revocation: tlsBase + OAUTH_REVOKE_PATH },
  };
}
