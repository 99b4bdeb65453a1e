import type { X509Certificate } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { createAccessTokens } from './auth/tokens/access-tokens.js';
import { decryptPartnerPassword } from './auth/credentials/decrypt-partner-password.js';
import { createBankAdmin, type BankAdmin } from './banks/bank-admin.js';
import type { Bank } from './banks/bank.js';
import { createBankRepository } from './banks/bank-repository.js';
import { createCachedBankRepository } from './banks/cached-bank-repository.js';
import { createCachedTokenFamilyRepository } from './auth/tokens/cached-token-family-repository.js';
import { createCachedPartnerRepository } from './partners/cached-partner-repository.js';
import { createPasswordVerifier } from './partners/password-verifier.js';
import { argon2Verifications } from './partners/password-hasher.js';
import { createGatewayMetrics, type GatewayMetrics } from './metrics/gateway-metrics.js';
import { publicUrl, tokenIssuer, type Config } from './config.js';
import type { DatabaseHandle } from './db/database.js';
import { errors } from './errors.js';
import { createAuditRepository, type AuditRepository } from './audit/audit-repository.js';
import { createAuditWriter, type AuditWriter } from './audit/audit-writer.js';
import { createAuditRetention, type RetentionReport } from './audit/audit-retention.js';
import type { AuditQuery } from '@partner-gateway/contract/admin-audit';
import { searchAudit, type AuditPage } from './audit/audit-search.js';
import { partnerActivity, type PartnerActivity } from './audit/partner-activity.js';
import { createBruteForceGuard } from './auth/steps/brute-force-guard.js';
import { createSharedStores } from './stores/shared-stores.js';
import type { ThrottlePolicy } from './stores/throttle/throttle-policy.js';
import { purgeThrottle } from './stores/throttle/throttle-store.js';
import { createTokenFamilyRepository } from './auth/tokens/token-family-repository.js';
import { createKeyRepository, type KeyUse } from './keys/key-repository.js';
import { createKeySealer } from './keys/master-key.js';
import { loadKeyStore, type KeyInfo } from './keys/key-store.js';
import { createPartnerAdmin, type PartnerAdmin } from './partners/partner-admin.js';
import { createPartnerCertificateAdmin, type PartnerCertificateAdmin } from './partners/partner-certificate-admin.js';
import { createRemoteJwks } from './partners/remote-jwks.js';
import { createPartnerRepository } from './partners/partner-repository.js';
import { createPartnerApi, type PartnerApi } from './operations/partner-api.js';
import { createOAuthApi, type OAuthApi } from './operations/oauth-api.js';
import { publicTlsUrl } from './mtls/tls-config.js';
import { countCertificatesExpiringBefore } from './partners/partner-certificate-expiry.js';
import { CERTIFICATE_EXPIRY_WARNING_DAYS } from '@partner-gateway/contract/admin-partner-certificates';
import { JWKS_PATH, LOGIN_PATH, LOGOUT_PATH, OAUTH_INTROSPECT_PATH, OAUTH_REVOKE_PATH, OAUTH_TOKEN_PATH, REFRESH_PATH, banksPath } from '@partner-gateway/contract/paths';

/**
 * What the HTTP layer (and the process around it) calls into, wired once from the configuration and the
 * database: operations, never the stores behind them. Built by `src/main.ts` for the real service and by
 * the tests for each backend.
 */
export interface Gateway {
  config: Config;
  /** Login, refresh, logout, banks and the JWKS. */
  partnerApi: PartnerApi;
  /** The OAuth 2.0 endpoints: client credentials, introspection, revocation and the server metadata. */
  oauth: OAuthApi;
  /** What the admin API does: partners, banks, keys and the audit trail. */
  admin: AdminOperations;
  runtime: GatewayRuntime;
}

export interface AdminOperations {
  partners: PartnerAdmin;
  /** A partner's client certificates and subject DN (mutual TLS, issue 14). */
  partnerCertificates: PartnerCertificateAdmin;
  banks: BankAdmin;
  keys: {
    /** Every key in service, read fresh from the database (another instance may have rotated). */
    list(): Promise<KeyInfo[]>;
    /** A new active key; the old one keeps working for its grace period. Every instance is told. */
    rotate(use: KeyUse): Promise<KeyInfo>;
    /** Drops a key at once (a new active key of its use first, if it was active); 404 for an unknown kid. */
    revoke(kid: string): Promise<KeyInfo>;
  };
  audit: {
    /** Writes the entries still queued, so that a change is visible as soon as its response is. */
    flush(): Promise<void>;
    query: AuditRepository['query'];
    /** The admin API's search: its query-string filters read, the queue flushed first, one page. */
    search(query: AuditQuery): Promise<AuditPage>;
    /** The last successful partner API call of each of the comma-separated logins (at most 100). */
    activity(logins: string): Promise<PartnerActivity[]>;
  };
}

export interface GatewayRuntime {
  /** What `GET /metrics` on the admin listener renders; both listeners record their requests in it. */
  metrics: GatewayMetrics;
  /** Where the HTTP layer records each audited call. */
  auditTrail: AuditWriter;
  now(): number;
  /** Throws `not_ready` unless the database answers within a second. */
  ready(): Promise<void>;
  /** Fills an empty bank registry; true when it did. */
  seedBanks(banks: readonly Bank[]): Promise<boolean>;
  /** Deletes rows nobody can use any more: spent JWE ids, expired token families, old throttle counters. */
  purgeExpired(): Promise<void>;
  /** One audit maintenance run now (partitions ahead, AUDIT_RETENTION_DAYS); it also runs every AUDIT_MAINTENANCE_MS. */
  maintainAudit(): Promise<RetentionReport>;
  /** Drains the audit trail (trying for up to `timeoutMs`) and closes Redis and the change feed (the database handle is the caller's). */
  close(timeoutMs?: number): Promise<void>;
}

export interface GatewayOptions {
  /** The key that seals private keys at rest (see resolveMasterKey). */
  masterKey: Buffer;
  now?: () => number;
  /** Told when a batch of audit entries could not be written yet (they stay queued). */
  onAuditError?: (error: unknown) => void;
  /** Told when an audit maintenance run (partitions, retention) fails; the next run tries again. */
  onAuditMaintenanceError?: (error: unknown) => void;
  /** Told when Redis fails and a call falls back to the database. */
  onRedisError?: (error: unknown) => void;
  /** Told when the change feed between instances loses its connection (it reconnects by itself). */
  onFeedError?: (error: unknown) => void;
  /** Told of JWEs found accepted twice across a Redis failover (see createJournaledReplayStore). */
  onReplayConflict?: (jtis: string[]) => void;
  /** Told of replay journal entries dropped because the database could not hold them (how many). */
  onReplayJournalDrop?: (count: number) => void;
  /** Told when the embedded database's replay cache could not write its table behind (retried at its next turn). */
  onReplayWriteError?: (error: unknown) => void;
  /** Told when shutting down loses something: replay journal entries not written down in time. */
  onCloseError?: (error: unknown) => void;
  /**
   * TLS_CLIENT_CA_FILE's CAs as last (re)loaded (`tlsFiles.trustedCas`), asked on every tls_client_auth check so
   * that a SIGHUP reload counts from the next request; none when unset (tls_client_auth then always fails).
   */
  trustedCas?: () => readonly X509Certificate[];
}

/** How often partitions are made ahead and expired audit entries removed. */
const AUDIT_MAINTENANCE_MS = 15 * 60_000;

/** How long closing waits for the replay journal to be written down. */
const JOURNAL_DRAIN_MS = 2_000;

export async function createGateway(config: Config, handle: DatabaseHandle, options: GatewayOptions): Promise<Gateway> {
  const now = options.now ?? (() => Date.now());
  const feed = handle.changeFeed(options.onFeedError);
  const partners = createCachedPartnerRepository(createPartnerRepository(handle.db), config.CACHE_TTL_MS, now, (change) =>
    feed.publish({ kind: 'partner', ...change }),
  );
  const banks = createCachedBankRepository(createBankRepository(handle.db), config.CACHE_TTL_MS, now, () => feed.publish({ kind: 'banks' }));
  const families = createCachedTokenFamilyRepository(createTokenFamilyRepository(handle.db), config.CACHE_TTL_MS, now, (id) =>
    feed.publish({ kind: 'family', id }),
  );
  const keys = await loadKeyStore({
    repository: createKeyRepository(handle.db, createKeySealer(options.masterKey)),
    // A retired signing key verifies for a token lifetime plus a minute of clock margin.
    sigGraceSeconds: config.TOKEN_TTL + 60,
    encGraceSeconds: config.ENC_KEY_GRACE,
    now,
    onRotate: () => feed.publish({ kind: 'keys' }),
    // A revocation reaches the other instances through the change feed: they reload their keys at once.
    onRevoke: () => feed.publish({ kind: 'keys' }),
  });
  feed.subscribe((change) => {
    if (change.kind === 'partner') partners.invalidate(change);
    else if (change.kind === 'family') families.invalidate(change.id);
    else if (change.kind === 'banks') banks.invalidate();
    else if (change.kind === 'keys') keys.reload().catch(() => {});
  });
  // Partners' published key sets (jwksUri), fetched and cached per instance: at registration (admin) and when a
  // client assertion names a key (the token endpoint).
  const remoteJwks = createRemoteJwks({ now, publicOnly: config.NODE_ENV === 'production' });
  const throttlePolicy = throttlePolicyOf(config);
  const auditLog = createAuditRepository(handle.db);
  const audit = createAuditWriter(auditLog, { maxPending: config.AUDIT_QUEUE_MAX, ...(options.onAuditError ? { onError: options.onAuditError } : {}) });
  const auditRetention = createAuditRetention(handle.db, { retentionDays: config.AUDIT_RETENTION_DAYS, now });
  auditRetention.start(AUDIT_MAINTENANCE_MS, options.onAuditMaintenanceError);
  const shared = createSharedStores(config, handle, feed, throttlePolicy, {
    now,
    ...(options.onRedisError ? { onRedisError: options.onRedisError } : {}),
    ...(options.onReplayConflict ? { onReplayConflict: options.onReplayConflict } : {}),
    ...(options.onReplayJournalDrop ? { onReplayJournalDrop: options.onReplayJournalDrop } : {}),
    ...(options.onReplayWriteError ? { onReplayWriteError: options.onReplayWriteError } : {}),
  });
  const passwords = createPasswordVerifier({
    concurrency: config.ARGON2_CONCURRENCY ?? availableParallelism(),
    maxQueue: config.ARGON2_QUEUE,
    rememberMs: config.PASSWORD_CACHE_TTL * 1000,
    now,
  });
  const metrics = createGatewayMetrics({
    caches: {
      partners: () => ({ hits: partners.cache.hits, misses: partners.cache.misses }),
      token_families: () => families.stats(),
      banks: () => banks.stats(),
      passwords: () => passwords.stats().remembered,
    },
    pool: () => handle.poolStats(),
    auditPending: () => audit.pending(),
    auditDropped: () => audit.dropped(),
    auditTable: () => {
      const last = auditRetention.last();
      return last ? { oldestAt: last.oldestAt, partitions: last.partitions } : undefined;
    },
    replayConflicts: () => shared.replayConflicts(),
    replayJournalDropped: () => shared.replayJournalDropped(),
    argon2: () => ({ ...passwords.stats(), verifications: argon2Verifications() }),
    expiringCertificates: () => countCertificatesExpiringBefore(handle.db, new Date(now() + CERTIFICATE_EXPIRY_WARNING_DAYS * 86_400_000)),
  });
  const guard = createBruteForceGuard(shared.throttle, now, config.CACHE_TTL_MS);
  const tokens = createAccessTokens({ keys, issuer: tokenIssuer(config), audience: config.TOKEN_AUDIENCE, ttlSeconds: config.TOKEN_TTL, now });
  // DPoP proofs: the JWE window's bounds, their jtis spent in the JWEs' replay store (shared by every instance).
  const dpop = { replay: shared.replay, maxAgeSeconds: config.JWE_MAX_AGE, maxFutureSeconds: config.JWE_MAX_FUTURE, now };
  const base = publicUrl(config);
  const urls = {
    issuer: tokenIssuer(config),
    token: base + OAUTH_TOKEN_PATH,
    introspection: base + OAUTH_INTROSPECT_PATH,
    revocation: base + OAUTH_REVOKE_PATH,
    jwks: base + JWKS_PATH,
    login: base + LOGIN_PATH,
    refresh: base + REFRESH_PATH,
    logout: base + LOGOUT_PATH,
    banks: base + banksPath(config.PROVIDER_SEGMENT),
  };
  // RFC 8705 mtls_endpoint_aliases: only when the gateway takes client certificates (an HTTPS listener or PUBLIC_TLS_URL).
  const tlsBase = publicTlsUrl(config);
  const mtlsUrls = tlsBase === undefined ? undefined : { token: tlsBase + OAUTH_TOKEN_PATH, introspection: tlsBase + OAUTH_INTROSPECT_PATH, revocation: tlsBase + OAUTH_REVOKE_PATH };
  const partnerApi = createPartnerApi({
    partners,
    banks,
    keys,
    families,
    passwords,
    replay: shared.replay,
    guard,
    tokens,
    refreshTtlSeconds: config.REFRESH_TTL,
    now,
    dpop,
    urls,
    decryptPassword: (jwe) =>
      decryptPartnerPassword(jwe, { keys, maxAgeSeconds: config.JWE_MAX_AGE, maxFutureSeconds: config.JWE_MAX_FUTURE, now }),
  });
  const oauth = createOAuthApi({
    partners,
    guard,
    passwords,
    replay: shared.replay,
    remoteJwks,
    assertionAudiences: [urls.issuer, urls.token],
    now,
    tokens,
    families,
    dpop,
    tokenEndpoint: urls.token,
    urls: { ...urls, mtls: mtlsUrls },
    onTokenRequest: (method, outcome) => metrics.countTokenRequest(method, outcome),
    ...(options.trustedCas ? { trustedCas: options.trustedCas } : {}),
  });
  return {
    config,
    partnerApi,
    oauth,
    admin: {
      partners: createPartnerAdmin(partners, { production: config.NODE_ENV === 'production', remoteJwks, now }),
      partnerCertificates: createPartnerCertificateAdmin(partners, now),
      banks: createBankAdmin(banks),
      keys: {
        async list() {
          await keys.reload();
          return keys.list();
        },
        rotate: (use) => keys.rotate(use),
        async revoke(kid) {
          const key = await keys.revoke(kid);
          if (!key) throw errors.notFound();
          return key;
        },
      },
      audit: {
        flush: () => audit.flush(),
        query: (filter) => auditLog.query(filter),
        search: (query) => searchAudit(audit, auditLog, query),
        activity: (logins) => partnerActivity(audit, auditLog, logins),
      },
    },
    runtime: {
      metrics,
      auditTrail: audit,
      now,
      async ready() {
        try {
          await handle.ping(1_000);
        } catch {
          throw errors.notReady();
        }
      },
      seedBanks: (list) => banks.seedIfEmpty(list),
      maintainAudit: () => auditRetention.run(),
      async purgeExpired() {
        const at = now();
        await shared.replay.purgeExpired(new Date(at));
        await families.purgeExpired(new Date(at));
        await purgeThrottle(handle.db, throttlePolicy, at);
      },
      async close(timeoutMs) {
        try {
          await auditRetention.stop();
          await audit.close(timeoutMs);
        } finally {
          await shared.close(JOURNAL_DRAIN_MS).catch((error: unknown) => options.onCloseError?.(error));
          await feed.close();
        }
      },
    },
  };
}

/** Keycloak's defaults in spirit: a lockout history is forgotten after 12 quiet hours. */
function throttlePolicyOf(config: Config): ThrottlePolicy {
  return {
    maxFailures: config.THROTTLE_MAX_FAILURES,
    windowMs: config.THROTTLE_WINDOW * 1000,
    lockoutMs: config.THROTTLE_LOCKOUT * 1000,
    lockoutMaxMs: Math.max(config.THROTTLE_LOCKOUT_MAX, config.THROTTLE_LOCKOUT) * 1000,
    memoryMs: 12 * 3600 * 1000,
  };
}
