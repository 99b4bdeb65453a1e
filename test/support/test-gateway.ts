import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { loadConfig, type Config } from '../../src/config.js';
import type { DatabaseHandle } from '../../src/db/database.js';
import { createGateway, type Gateway } from '../../src/gateway.js';
import { buildAdminApp } from '../../src/http/admin-app.js';
import { buildApp } from '../../src/http/app.js';
import type { CreatePartnerBody } from '@partner-gateway/contract/admin-partners';
import type { OperatorRole } from '@partner-gateway/contract/admin-permissions';
import { createKeyRepository } from '../../src/keys/key-repository.js';
import { loadKeyStore } from '../../src/keys/key-store.js';
import { createKeySealer } from '../../src/keys/master-key.js';
import { siblingHandle, type TestBackend } from './test-databases.js';

/** A fixed master key, so that several gateways of one test can share a database's sealed keys. */
export const TEST_MASTER_KEY = Buffer.alloc(32, 7);

export const TEST_ADMIN_TOKEN = 'test-admin-token-0123456789abcdef0123456789';

export interface TestGateway {
  app: FastifyInstance;
  /** The admin API, behind `TEST_ADMIN_TOKEN`. */
  admin: FastifyInstance;
  gateway: Gateway;
  handle: DatabaseHandle;
  /** Every log line the app wrote, as raw JSON text. */
  logs: string[];
  /** Creates a partner through the admin service (active, loopback-only, reward type sbp unless overridden). */
  addPartner(overrides?: Partial<CreatePartnerBody>): Promise<{ login: string; password: string; id: string }>;
  /** Creates an operator with a personal token (issued by `issuedBy`, the bootstrap credential by default) through the admin service. */
  addOperator(role: OperatorRole, options?: { name?: string; issuedBy?: string }): Promise<TestOperator>;
  close(): Promise<void>;
}

/** An operator a test acts as: `headers` carry its personal token. */
export interface TestOperator {
  id: string;
  name: string;
  role: OperatorRole;
  token: string;
  headers: { authorization: string };
}

let counter = 0;

/** A public app on a fresh database of `backend`, with the default bank list seeded and logs captured. */
export async function startTestGateway(
  backend: TestBackend,
  options: TestGatewayOptions = {},
): Promise<TestGateway> {
  return gatewayOn(await backend.open(), options);
}

export interface TestGatewayOptions {
  env?: Record<string, string>;
  now?: () => number;
  seedBanks?: boolean;
}

/**
 * A second gateway instance on the database of `t` (its own pool on PostgreSQL, the same embedded database on
 * PGlite), with its own caches and change feed, as a second process behind a load balancer would be.
 */
export async function startSiblingGateway(t: TestGateway, options: TestGatewayOptions = {}): Promise<TestGateway> {
  return gatewayOn(await siblingHandle(t.handle), { ...options, seedBanks: false });
}

async function gatewayOn(handle: DatabaseHandle, options: TestGatewayOptions): Promise<TestGateway> {
  // Suites that are not about brute force make many deliberate failures from one address; they get a high
  // threshold, and the brute-force suite sets its own.
  // The harness gives the database itself (PGlite in memory or a PostgreSQL schema): a production-mode test gateway is not refused the embedded one.
  const config: Config = loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'info', THROTTLE_MAX_FAILURES: '1000', ALLOW_EMBEDDED_DATABASE: 'true', ...options.env });
  const gateway = await createGateway(config, handle, { masterKey: TEST_MASTER_KEY, ...(options.now ? { now: options.now } : {}) });
  if (options.seedBanks !== false) {
    const { loadDefaultBanks } = await import('../../src/banks/default-banks.js');
    await gateway.runtime.seedBanks(loadDefaultBanks());
  }
  const logs: string[] = [];
  const logger = pino(
    { level: 'info' },
    new Writable({
      write(chunk, _encoding, callback) {
        logs.push(String(chunk));
        callback();
      },
    }),
  );
  const app = await buildApp({ gateway, logger });
  const admin = await buildAdminApp({ gateway, logger, adminToken: TEST_ADMIN_TOKEN, metricsToken: config.METRICS_TOKEN });
  await Promise.all([app.ready(), admin.ready()]);
  return {
    app,
    admin,
    gateway,
    handle,
    logs,
    async addPartner(overrides = {}) {
      const login = overrides.login ?? `partner-${process.pid}-${++counter}`;
      const password = overrides.password ?? `correct horse battery ${counter}`;
      const view = await gateway.admin.partners.create({
        login,
        password,
        ipAllowlist: ['127.0.0.1', '::1'],
        rewardTypes: ['sbp'],
        ...overrides,
      });
      // The id is not enumerable, so that the credentials can be posted as a login body as they are (the
      // login body allows no other field).
      return Object.defineProperty({ login, password }, 'id', { value: view.id, enumerable: false }) as { login: string; password: string; id: string };
    },
    async addOperator(role, { name, issuedBy = 'bootstrap' } = {}) {
      const operator = await gateway.admin.operators.create({ name: name ?? `${role}-${process.pid}-${++counter}`, role }, 'bootstrap');
      const { token } = await gateway.admin.operators.createToken(operator.id, { label: 'test' }, { id: issuedBy, through: issuedBy === 'bootstrap' ? [] : [issuedBy] });
      return { id: operator.id, name: operator.name, role, token, headers: { authorization: `Bearer ${token}` } };
    },
    async close() {
      await Promise.all([app.close(), admin.close()]);
      await gateway.runtime.close(1_000).catch(() => {});
      await handle.close();
    },
  };
}

/**
 * The gateway's active signing key, read from its database with the test master key (the gateway keeps its
 * key store private): what a test needs to forge tokens that carry a genuine signature.
 */
export async function signingKeyOf(t: Pick<TestGateway, 'handle'>) {
  const store = await loadKeyStore({ repository: createKeyRepository(t.handle.db, createKeySealer(TEST_MASTER_KEY)), sigGraceSeconds: 960, encGraceSeconds: 3600 });
  return store.signing();
}
