import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { encryptPassword } from '../../test/support/encrypt-password.js';
import { testBackends } from '../../test/support/test-databases.js';
import { startTestGateway, TEST_ADMIN_TOKEN, TEST_MASTER_KEY, type TestGateway } from '../../test/support/test-gateway.js';
import { createKeyRepository } from './key-repository.js';
import { generateStoredKey, loadKeyStore } from './key-store.js';
import { createKeySealer } from './master-key.js';

const BANKS = '/partner/provider/sbp/banks/';

for (const backend of testBackends()) {
  describe(`keys on ${backend.name}`, () => {
    let t: TestGateway;
    let clock = Date.now();
    before(async () => {
      t = await startTestGateway(backend, { now: () => clock, env: { TOKEN_TTL: '60', ENC_KEY_GRACE: '600' } });
    });
    after(() => t.close());

    const admin = (method: 'GET' | 'POST', url: string, payload?: object) =>
      t.admin.inject({ method, url, headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` }, ...(payload ? { payload } : {}) });
    const jwks = async () => (await t.app.inject({ method: 'GET', url: '/.well-known/jwks.json' })).json() as { keys: Array<{ kid: string; use: string }> };

    it('keeps private keys sealed at rest: no private JWK in clear in the database', async () => {
      const rows = await sql<{ private_jwk: unknown; private_jwk_sealed: string }>`select private_jwk, private_jwk_sealed from crypto_keys`.execute(t.handle.db);
      assert.ok(rows.rows.length >= 2);
      for (const row of rows.rows) {
        assert.equal(row.private_jwk, null);
        assert.match(row.private_jwk_sealed, /^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
      }
    });

    it('refuses to open the keys with another master key', async () => {
      const repository = createKeyRepository(t.handle.db, createKeySealer(Buffer.alloc(32, 9)));
      await assert.rejects(loadKeyStore({ repository, sigGraceSeconds: 60, encGraceSeconds: 60 }), /MASTER_KEY is not the one/);
    });

    it('seals a key stored in clear by an earlier release when it starts', async () => {
      const legacy = await generateStoredKey('enc', 'RSA-OAEP-256');
      await sql`insert into crypto_keys (kid, use, alg, public_jwk, private_jwk, retired_at) values (${legacy.kid}, 'enc', 'RSA-OAEP-256', ${JSON.stringify(legacy.publicJwk)}, ${JSON.stringify(legacy.privateJwk)}, now())`.execute(t.handle.db);
      await loadKeyStore({ repository: createKeyRepository(t.handle.db, createKeySealer(TEST_MASTER_KEY)), sigGraceSeconds: 60, encGraceSeconds: 60 });
      const row = await sql<{ private_jwk: unknown; private_jwk_sealed: string | null }>`select private_jwk, private_jwk_sealed from crypto_keys where kid = ${legacy.kid}`.execute(t.handle.db);
      assert.equal(row.rows[0]?.private_jwk, null);
      assert.ok(row.rows[0]?.private_jwk_sealed);
    });

    it('lists keys without any private part', async () => {
      const response = await admin('GET', '/admin/v1/keys');
      assert.equal(response.statusCode, 200);
      const keys = response.json().keys as Array<Record<string, unknown>>;
      assert.ok(keys.some((key) => key.use === 'sig' && key.active === true));
      assert.ok(keys.some((key) => key.use === 'enc' && key.active === true));
      assert.ok(!response.body.includes('"d"') && !response.body.includes('sealed'));
    });

    it('rotates the signing key: new tokens use it at once, old tokens verify for the grace period, then the old key drops out', async () => {
      clock = Date.now();
      const partner = await t.addPartner();
      const oldToken = (await t.app.inject({ method: 'POST', url: '/api/v1/login/', payload: partner })).json().access_token as string;
      const oldKid = JSON.parse(Buffer.from(oldToken.split('.')[0]!, 'base64url').toString()).kid;
      const rotated = await admin('POST', '/admin/v1/keys/rotate', { use: 'sig' });
      assert.equal(rotated.statusCode, 201);
      const newKid = rotated.json().kid;
      assert.notEqual(newKid, oldKid);
      const newToken = (await t.app.inject({ method: 'POST', url: '/api/v1/login/', payload: partner })).json().access_token as string;
      assert.equal(JSON.parse(Buffer.from(newToken.split('.')[0]!, 'base64url').toString()).kid, newKid);
      assert.ok((await jwks()).keys.some((key) => key.kid === oldKid), 'the retired key stays published');
      assert.equal((await t.app.inject({ method: 'POST', url: BANKS, headers: { authorization: `Bearer ${oldToken}` } })).statusCode, 200);

      clock = Date.now() + 121_000; // past TOKEN_TTL + 60 s of grace (the retirement was stamped with real time)
      assert.ok(!(await jwks()).keys.some((key) => key.kid === oldKid), 'the retired key left the JWKS by itself');
      const late = await t.app.inject({ method: 'POST', url: BANKS, headers: { authorization: `Bearer ${oldToken}` } });
      assert.equal(late.statusCode, 401, 'a token from a key retired past its grace is refused');
    });

    it('rotates the encryption key: JWEs to the old key decrypt until ENC_KEY_GRACE, then are refused', async () => {
      clock = Date.now();
      const partner = await t.addPartner();
      const before = await jwks();
      const rotated = await admin('POST', '/admin/v1/keys/rotate', { use: 'enc' });
      assert.equal(rotated.statusCode, 201);
      const after = await jwks();
      const oldEnc = before.keys.find((key) => key.use === 'enc')!;
      assert.ok(after.keys.some((key) => key.kid === rotated.json().kid) && after.keys.some((key) => key.kid === oldEnc.kid));
      const call = async (key: unknown) => {
        const jwe = await encryptPassword(partner.password, before as never, { key: key as never, header: { iat: Math.floor(clock / 1000) } });
        return t.app.inject({ method: 'POST', url: `${BANKS}?partnerName=${partner.login}&partnerPassword=${jwe}&useAuthByCert=Y` });
      };
      assert.equal((await call(oldEnc)).statusCode, 200);
      clock = Date.now() + 601_000;
      assert.equal((await call(oldEnc)).statusCode, 401);
      assert.ok(!(await jwks()).keys.some((key) => key.kid === oldEnc.kid));
      const current = (await jwks()).keys.find((key) => key.use === 'enc');
      assert.equal((await call(current)).statusCode, 200);
    });

    it('refuses a rotation of an unknown use', async () => {
      assert.equal((await admin('POST', '/admin/v1/keys/rotate', { use: 'both' })).statusCode, 422);
    });
  });
}
