import { availableParallelism } from 'node:os';
import type { Kysely } from 'kysely';
import { CERTIFICATE_EXPIRY_WARNING_DAYS } from '@partner-gateway/contract/admin-partner-certificates';
import { rewardTypeCatalogue, type Config } from '../config.js';
import type { ChangeFeed } from '../db/change-feed.js';
import type { Database } from '../db/schema.js';
import { createCachedPartnerRepository, type CachedPartnerRepository } from './cached-partner-repository.js';
import { createPartnerAdmin, type PartnerAdmin } from './partner-admin.js';
import { createPartnerCertificateAdmin, type PartnerCertificateAdmin } from './partner-certificate-admin.js';
import { createPartnerKeyAdmin, type PartnerKeyAdmin } from './partner-key-admin.js';
import { countCertificatesExpiringBefore } from './partner-certificate-expiry.js';
import type { CredentialEndsQuery, CredentialEndsResponse } from '@partner-gateway/contract/admin-credential-ends';
import type { EndingCredential } from '@partner-gateway/contract/webhook-events';
import { countCredentialsEndingBetween, listCredentialEnds } from './partner-credential-ends.js';
import { KEY_END_WARNING_DAYS } from '@partner-gateway/contract/self-service';
import { createPartnerRepository } from './partner-repository.js';
import { createPasswordVerifier, type PasswordVerifier } from './password-verifier.js';
import { createRemoteJwks, type RemoteJwks } from './remote-jwks.js';

/** The partner registry, wired: what authentication reads and what the admin API changes. */
export interface PartnersModule {
  /** Partners, cached for CACHE_TTL_MS; a change here reaches the other instances through the change feed. */
  repository: CachedPartnerRepository;
  /** argon2 verification, bounded (ARGON2_CONCURRENCY, ARGON2_QUEUE), with recent successes remembered (PASSWORD_CACHE_TTL). */
  passwords: PasswordVerifier;
  /** Partners' published key sets (jwksUri), fetched and cached per instance: at registration and by client assertions. */
  remoteJwks: RemoteJwks;
  admin: PartnerAdmin;
  /** A partner's public keys for private_key_jwt (one of its sub-resources). */
  keyAdmin: PartnerKeyAdmin;
  /** A partner's client certificates and subject DN (mutual TLS; one of its sub-resources). */
  certificateAdmin: PartnerCertificateAdmin;
  /** For /metrics: registered certificates expiring within CERTIFICATE_EXPIRY_WARNING_DAYS, or expired. */
  expiringCertificates(): Promise<number>;
  /** For /metrics: credentials of each kind that stop working within 7 days (credentialsEndingBetween). */
  endingCredentials(): Promise<Record<EndingCredential, number>>;
  /** For the admin API: the partners' credentials ending within the query's days (listCredentialEnds). */
  credentialEnds(query: CredentialEndsQuery): Promise<CredentialEndsResponse>;
}

/**
 * Builds the partners module over `db` and subscribes it to the change feed, so that a partner changed on
 * another instance is read again here.
 *
 * @example
 * ```ts
 * const partners = createPartners(handle.db, feed, config, Date.now);
 * await partners.admin.create({ login: 'acme', password, ipAllowlist: ['203.0.113.0/24'], rewardTypes: ['sbp'] });
 * ```
 */
export function createPartners(db: Kysely<Database>, feed: ChangeFeed, config: Config, now: () => number): PartnersModule {
  const repository = createCachedPartnerRepository(createPartnerRepository(db), config.CACHE_TTL_MS, now, (change) => feed.publish({ kind: 'partner', ...change }));
  feed.subscribe('partner', (change) => repository.invalidate(change));
  const remoteJwks = createRemoteJwks({ now, production: config.NODE_ENV === 'production' });
  return {
    repository,
    passwords: createPasswordVerifier({
      concurrency: config.ARGON2_CONCURRENCY ?? availableParallelism(),
      maxQueue: config.ARGON2_QUEUE,
      rememberMs: config.PASSWORD_CACHE_TTL * 1000,
      now,
    }),
    remoteJwks,
    admin: createPartnerAdmin(repository, rewardTypeCatalogue(config)),
    keyAdmin: createPartnerKeyAdmin(repository, { production: config.NODE_ENV === 'production', remoteJwks, now }),
    certificateAdmin: createPartnerCertificateAdmin(repository, now),
    expiringCertificates: () => countCertificatesExpiringBefore(db, new Date(now() + CERTIFICATE_EXPIRY_WARNING_DAYS * 86_400_000)),
    endingCredentials: () => countCredentialsEndingBetween(db, new Date(now()), new Date(now() + KEY_END_WARNING_DAYS * 86_400_000)),
    credentialEnds: (query) => listCredentialEnds(db, now(), query),
  };
}
