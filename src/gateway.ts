import { createAccessTokens, type AccessTokens } from './auth/tokens/access-tokens.js';
import { decryptPartnerPassword, type DecryptedPassword } from './auth/steps/decrypt-partner-password.js';
import { createBankAdmin, type BankAdmin } from './banks/bank-admin.js';
import { createBankRepository } from './banks/bank-repository.js';
import { createCachedBankRepository, type BankCatalog } from './banks/cached-bank-repository.js';
import { createCachedTokenFamilyRepository } from './auth/tokens/cached-token-family-repository.js';
import { createCachedPartnerRepository } from './partners/cached-partner-repository.js';
import { createPasswordVerifier, type PasswordVerifier } from './partners/password-verifier.js';
import { argon2Verifications } from './partners/password-hasher.js';
import { createGatewayMetrics, type GatewayMetrics } from './metrics/gateway-metrics.js';
import { availableParallelism } from 'node:os';
import type { Config } from './config.js';
import type { DatabaseHandle } from './db/database.js';
import type { AuditRepository } from './audit/audit-repository.js';
import { createAuditRepository } from './audit/audit-repository.js';
import { createAuditWriter, type AuditWriter } from './audit/audit-writer.js';
import { createAuditRetention, type AuditRetention } from './audit/audit-retention.js';
import { createBruteForceGuard, type BruteForceGuard } from './auth/steps/brute-force-guard.js';
import type { JtiReplayRepository } from './stores/replay/jti-replay-repository.js';
import { createSharedStores } from './stores/shared-stores.js';
import type { ThrottlePolicy } from './stores/throttle/throttle-policy.js';
import { createTokenFamilyRepository, type TokenFamilyRepository } from './auth/tokens/token-family-repository.js';
import { createKeyRepository } from './keys/key-repository.js';
import { createKeySealer } from './keys/master-key.js';
import { loadKeyStore, type KeyStore } from './keys/key-store.js';
import { createPartnerAdmin, type PartnerAdmin } from './partners/partner-admin.js';
import { createPartnerRepository, type PartnerRepository } from './partners/partner-repository.js';

/**
 * Everything the HTTP layer calls into, wired once from the configuration and the database. Built by
 * `src/main.ts` for the real service and by the tests for each backend.
 */
export interface Gateway {
  config: Config;
  database: Pick<DatabaseHandle, 'ping' | 'kind'>;
  partners: PartnerRepository;
  banks: BankCatalog;
  passwords: PasswordVerifier;
  keys: KeyStore;
  tokens: AccessTokens;
  replay: JtiReplayRepository;
  families: TokenFamilyRepository;
  guard: BruteForceGuard;
  throttlePolicy: ThrottlePolicy;
  refreshTtlSeconds: number;
  now: () => number;
  decryptPassword(jwe: string): Promise<DecryptedPassword>;
  partnerAdmin: PartnerAdmin;
  bankAdmin: BankAdmin;
  audit: AuditWriter;
  auditLog: AuditRepository;
  /** Partitions ahead and AUDIT_RETENTION_DAYS, run every AUDIT_MAINTENANCE_MS from the gateway's start. */
  auditRetention: AuditRetention;
  /** What `GET /metrics` on the admin listener renders; both listeners record their requests in it. */
  metrics: GatewayMetrics;
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
  /** Told when shutting down loses something: replay journal entries not written down in time. */
  onCloseError?: (error: unknown) => void;
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
  });
  feed.subscribe((change) => {
    if (change.kind === 'partner') partners.invalidate(change);
    else if (change.kind === 'family') families.invalidate(change.id);
    else if (change.kind === 'banks') banks.invalidate();
    else if (change.kind === 'keys') keys.reload().catch(() => {});
  });
  const rotate = keys.rotate.bind(keys);
  keys.rotate = async (use) => {
    const key = await rotate(use);
    feed.publish({ kind: 'keys' });
    return key;
  };
  const throttlePolicy = throttlePolicyOf(config);
  const auditLog = createAuditRepository(handle.db);
  const audit = createAuditWriter(auditLog, { maxPending: config.AUDIT_QUEUE_MAX, ...(options.onAuditError ? { onError: options.onAuditError } : {}) });
  const auditRetention = createAuditRetention(handle.db, { retentionDays: config.AUDIT_RETENTION_DAYS, now });
  auditRetention.start(AUDIT_MAINTENANCE_MS, options.onAuditMaintenanceError);
  const shared = createSharedStores(config, handle, feed, throttlePolicy, {
    now,
    ...(options.onRedisError ? { onRedisError: options.onRedisError } : {}),
    ...(options.onReplayConflict ? { onReplayConflict: options.onReplayConflict } : {}),
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
    argon2: () => ({ ...passwords.stats(), verifications: argon2Verifications() }),
  });
  return {
    auditLog,
    audit,
    auditRetention,
    metrics,
    async close(timeoutMs) {
      try {
        await auditRetention.stop();
        await audit.close(timeoutMs);
      } finally {
        await shared.close(JOURNAL_DRAIN_MS).catch((error: unknown) => options.onCloseError?.(error));
        await feed.close();
      }
    },
    config,
    database: handle,
    throttlePolicy,
    guard: createBruteForceGuard(shared.throttle, now, config.CACHE_TTL_MS),
    partners,
    banks,
    keys,
    tokens: createAccessTokens({
      keys,
      issuer: config.TOKEN_ISSUER,
      audience: config.TOKEN_AUDIENCE,
      ttlSeconds: config.TOKEN_TTL,
      now,
    }),
    replay: shared.replay,
    families,
    passwords,
    refreshTtlSeconds: config.REFRESH_TTL,
    now,
    decryptPassword: (jwe) =>
      decryptPartnerPassword(jwe, { keys, maxAgeSeconds: config.JWE_MAX_AGE, maxFutureSeconds: config.JWE_MAX_FUTURE, now }),
    partnerAdmin: createPartnerAdmin(partners),
    bankAdmin: createBankAdmin(banks),
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
