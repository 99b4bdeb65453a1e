import assert from 'node:assert/strict';
import { randomBytes, randomInt } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { JWK } from 'jose';
import pg from 'pg';
import { encryptPassword } from '../support/encrypt-password.js';
import { startGatewayProcess, stopGatewayProcess } from '../support/gateway-process.js';

// Issue 11, finding 4: on the embedded database the JWE replay cache lived in memory, so a captured
// encrypted-password query string worked once more after every restart. No JWE is accepted twice, across a
// restart too, on every backend.

const url = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL;
const ADMIN_TOKEN = randomBytes(24).toString('hex');
const MASTER_KEY = randomBytes(32).toString('hex');

interface Variant {
  name: string;
  skip: string | false;
  /** The environment every start of the gateway gets, and what to clean up after. */
  setup(): Promise<{ env: Record<string, string>; adminToken: () => string; cleanup(): Promise<void> }>;
}

const postgres = (withRedis: boolean): Variant['setup'] => async () => {
  const schema = `restart_${randomBytes(5).toString('hex')}`;
  const query = async (text: string) => {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    await client.query(text);
    await client.end();
  };
  await query(`create schema ${schema}`);
  return {
    env: {
      DATABASE_URL: `${url}?options=${encodeURIComponent(`-c search_path=${schema}`)}`,
      ADMIN_TOKEN,
      MASTER_KEY,
      ...(withRedis ? { REDIS_URL: redisUrl!, REDIS_KEY_PREFIX: `test-${randomBytes(4).toString('hex')}:` } : {}),
    },
    adminToken: () => ADMIN_TOKEN,
    cleanup: () => query(`drop schema ${schema} cascade`),
  };
};

const variants: Variant[] = [
  {
    name: 'the embedded PGlite',
    skip: false,
    async setup() {
      const dataDir = mkdtempSync(join(tmpdir(), 'gateway-replay-'));
      return {
        env: { DATA_DIR: dataDir },
        adminToken: () => readFileSync(join(dataDir, 'admin-token'), 'utf8').trim(),
        cleanup: async () => rmSync(dataDir, { recursive: true, force: true }),
      };
    },
  },
  { name: 'PostgreSQL', skip: url ? false : 'TEST_DATABASE_URL is not set', setup: postgres(false) },
  { name: 'PostgreSQL and Redis', skip: url && redisUrl ? false : 'TEST_DATABASE_URL or TEST_REDIS_URL is not set', setup: postgres(true) },
];

for (const variant of variants) {
  describe(`a JWE replayed after a restart on ${variant.name}`, { skip: variant.skip }, () => {
    let cleanup: (() => Promise<void>) | undefined;
    after(() => cleanup?.());

    it('is refused: the replay cache outlives the process', async () => {
      const setup = await variant.setup();
      cleanup = setup.cleanup;
      const partner = { login: `replay-${randomInt(1e9)}`, password: 'a partner password for replay' };
      let gateway = await startGatewayProcess(setup.env);
      const created = await fetch(`${gateway.admin}/admin/v1/partners`, {
        method: 'POST',
        headers: { authorization: `Bearer ${setup.adminToken()}`, 'content-type': 'application/json' },
        body: JSON.stringify({ ...partner, ipAllowlist: ['127.0.0.1'], rewardTypes: ['sbp'] }),
      });
      assert.equal(created.status, 201);
      const jwks = (await (await fetch(`${gateway.base}/.well-known/jwks.json`)).json()) as { keys: JWK[] };
      const path = `/partner/provider/sbp/banks/?partnerName=${partner.login}&partnerPassword=${await encryptPassword(partner.password, jwks)}&useAuthByCert=Y`;
      assert.equal((await fetch(`${gateway.base}${path}`, { method: 'POST' })).status, 200, 'accepted once');
      assert.equal((await fetch(`${gateway.base}${path}`, { method: 'POST' })).status, 401, 'refused again');
      assert.equal(await stopGatewayProcess(gateway), 0);
      gateway = await startGatewayProcess(setup.env);
      try {
        assert.equal((await fetch(`${gateway.base}${path}`, { method: 'POST' })).status, 401, 'refused after the restart');
      } finally {
        await stopGatewayProcess(gateway);
      }
    });
  });
}
