import assert from 'node:assert/strict';
import { randomUUID, type X509Certificate } from 'node:crypto';
import type { CreatePartnerBody } from '@partner-gateway/contract/admin-partners';
import { LOGIN_PATH, LOGOUT_PATH, OAUTH_TOKEN_PATH, REFRESH_PATH, banksPath } from '@partner-gateway/contract/paths';
import { createAuth, type AuthModule } from '../../src/auth/auth-module.js';
import { createBanks, type BanksModule } from '../../src/banks/banks-module.js';
import { loadDefaultBanks } from '../../src/banks/default-banks.js';
import { loadConfig, publicUrl, type Config } from '../../src/config.js';
import type { DatabaseHandle } from '../../src/db/database.js';
import { AppError } from '../../src/errors.js';
import { createKeys, type KeysModule } from '../../src/keys/keys-module.js';
import type { Partner } from '../../src/partners/partner.js';
import { createPartners, type PartnersModule } from '../../src/partners/partners-module.js';
import type { RequestContext } from '../../src/request-context.js';
import { createSharedStores, type SharedStores } from '../../src/stores/shared-stores.js';
import { throttlePolicyOf } from '../../src/stores/throttle/throttle-policy.js';
import type { TestBackend } from './test-databases.js';
import { TEST_MASTER_KEY } from './test-gateway.js';

/** The paths an operation's DPoP proofs name, as the gateway wires them. */
export interface OperationPaths {
  login: string;
  refresh: string;
  logout: string;
  banks: string;
  token: string;
}

/**
 * For assert.rejects: an AppError of the catalogue with this code and, when given, this reason (the audit's).
 *
 * @example
 * await assert.rejects(loginPartner({ login }, h.context(), h.deps), refusedWith('parameter_missing'));
 */
export function refusedWith(code: string, reason?: string): (error: unknown) => boolean {
  return (error) => {
    assert.ok(error instanceof AppError, String(error));
    assert.equal(error.code, code, `${error.code} (${error.extra.reason ?? 'no reason'}): ${error.message}`);
    if (reason !== undefined) assert.equal(error.extra.reason, reason);
    return true;
  };
}

/**
 * The auth module and the domain modules it reads, wired as `createGateway` wires them, on a fresh database of
 * `backend`, without the HTTP layer: what a unit test of one operation or one credential check calls with
 * real collaborators (PGlite or PostgreSQL, argon2, signed tokens, the throttle and replay stores). The clock is
 * the real one plus whatever `advance` added, so that a test can let tokens or proofs expire.
 *
 * @example
 * const h = await startAuthHarness(backend);
 * const partner = await h.addPartner();
 * const session = await loginPartner({ login: partner.login, password: partner.password }, h.context(), h.deps);
 */
export interface AuthHarness {
  config: Config;
  handle: DatabaseHandle;
  /** What every operation takes: the auth module, the bank list, the paths and the token endpoint's audiences. */
  deps: AuthModule & { banks: BanksModule['catalog']; paths: OperationPaths };
  partners: PartnersModule;
  keys: KeysModule;
  banks: BanksModule;
  stores: SharedStores;
  /** The public base URL a request context names (PUBLIC_URL): a DPoP proof's `htu` starts with it. */
  baseUrl: string;
  /** Moves the harness's clock forward. */
  advance(ms: number): void;
  now(): number;
  /** A partner created through the admin operations (active, loopback-only, reward type sbp unless overridden), with its password. */
  addPartner(overrides?: Partial<CreatePartnerBody>): Promise<Partner & { password: string }>;
  /** A request context as the edge builds it, from 127.0.0.1 with no credential unless given. */
  context(overrides?: Partial<Omit<RequestContext, 'audit'>>): RequestContext;
  close(): Promise<void>;
}

let counter = 0;

export interface AuthHarnessOptions {
  env?: Record<string, string>;
  /** TLS_CLIENT_CA_FILE's CAs (tls_client_auth); none by default. */
  trustedCas?: () => readonly X509Certificate[];
}

export async function startAuthHarness(backend: TestBackend, options: AuthHarnessOptions = {}): Promise<AuthHarness> {
  const config = loadConfig({ NODE_ENV: 'test', THROTTLE_MAX_FAILURES: '1000', PUBLIC_URL: 'http://gateway.test', ...options.env });
  const handle = await backend.open();
  let offset = 0;
  const now = () => Date.now() + offset;
  const feed = handle.changeFeed();
  const partners = createPartners(handle.db, feed, config, now);
  const banks = createBanks(handle.db, feed, config, now, { kind: handle.kind, fetchSource: () => Promise.reject(new Error('no sync here')), onRun: () => {} });
  await banks.seed(loadDefaultBanks());
  const keys = await createKeys(handle.db, feed, config, TEST_MASTER_KEY, now);
  const stores = createSharedStores(config, handle, feed, throttlePolicyOf(config), { now, events: () => {}, acceptanceWindowMs: 361_000 });
  const baseUrl = publicUrl(config);
  const auth = createAuth({ config, db: handle.db, feed, partners, keys: keys.store, stores, tokenEndpoint: baseUrl + OAUTH_TOKEN_PATH, trustedCas: options.trustedCas, masterKey: TEST_MASTER_KEY, now });
  return {
    config,
    handle,
    deps: { ...auth, banks: banks.catalog, paths: { login: LOGIN_PATH, refresh: REFRESH_PATH, logout: LOGOUT_PATH, banks: banksPath(config.PROVIDER_SEGMENT), token: OAUTH_TOKEN_PATH } },
    partners,
    keys,
    banks,
    stores,
    baseUrl,
    advance: (ms) => {
      offset += ms;
    },
    now,
    async addPartner(overrides = {}) {
      const login = overrides.login ?? `unit-${process.pid}-${++counter}`;
      const password = overrides.password ?? `correct horse battery ${counter}`;
      await partners.admin.create({ login, password, ipAllowlist: ['127.0.0.1', '::1'], rewardTypes: ['sbp'], ...overrides });
      const partner = await partners.repository.findByLogin(login);
      if (!partner) throw new Error(`partner ${login} was not created`);
      return { ...partner, password };
    },
    context(overrides = {}) {
      return { requestId: randomUUID(), clientAddress: '127.0.0.1', authorization: undefined, dpop: undefined, certificate: undefined, baseUrl, ...overrides, audit: {} };
    },
    async close() {
      await stores.close(1_000).catch(() => {});
      await feed.close();
      await handle.close();
    },
  };
}
