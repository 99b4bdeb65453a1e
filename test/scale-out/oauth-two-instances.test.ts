import assert from 'node:assert/strict';
import { randomBytes, randomInt } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import pg from 'pg';
import { validatePartnerJwks } from '../../src/partners/partner-keys.js';
import { startGatewayProcesses, stopGatewayProcess, type GatewayProcess } from '../support/gateway-process.js';
import { CLIENT_ASSERTION_TYPE, clientAssertion, dpopProof, form, testKey, type TestKey } from '../support/oauth-client.js';
import { waitFor } from '../support/wait-for.js';

// Issue 13 across instances: two gateway processes behind one public address (PUBLIC_URL), on one PostgreSQL
// database, alone and with Redis. Whatever one instance accepted once, the other refuses; what one revokes,
// the other refuses once the change feed tells it.

const url = process.env.TEST_DATABASE_URL;
const redisUrl = process.env.TEST_REDIS_URL;
const ADMIN_TOKEN = randomBytes(24).toString('hex');
const MASTER_KEY = randomBytes(32).toString('hex');
const PUBLIC_URL = 'http://gateway.test';
const TOKEN_URL = `${PUBLIC_URL}/api/v1/oauth/token`;
const BANKS_URL = `${PUBLIC_URL}/partner/provider/sbp/banks/`;

const variants = [{ name: 'PostgreSQL alone', env: {} as Record<string, string> }];
if (redisUrl) variants.push({ name: 'PostgreSQL and Redis', env: { REDIS_URL: redisUrl, REDIS_KEY_PREFIX: `test-${randomBytes(4).toString('hex')}:` } });

for (const variant of variants) {
  describe(`OAuth on two gateway processes (${variant.name})`, { skip: url ? false : 'TEST_DATABASE_URL is not set' }, () => {
    const schema = `oauth_${randomBytes(5).toString('hex')}`;
    let a: GatewayProcess;
    let b: GatewayProcess;
    let key: TestKey;
    const partner = { login: `oauth-${randomInt(1e9)}`, password: 'a shared partner password' };
    before(async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(`create schema ${schema}`);
      await client.end();
      const databaseUrl = `${url}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
      [a, b] = (await startGatewayProcesses(2, { DATABASE_URL: databaseUrl, ADMIN_TOKEN, MASTER_KEY, PUBLIC_URL, ...variant.env })) as [GatewayProcess, GatewayProcess];
      const admin = (path: string, method: string, body: unknown) =>
        fetch(`${a.admin}${path}`, { method, headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      assert.equal((await admin('/admin/v1/partners', 'POST', { ...partner, ipAllowlist: ['127.0.0.1'], rewardTypes: ['sbp'] })).status, 201);
      // The keys are written straight into the database (the admin route for them is another change's), then
      // an admin update through A tells both instances the partner changed.
      key = await testKey();
      const keys = await validatePartnerJwks([key.publicJwk]);
      const db = new pg.Client({ connectionString: databaseUrl });
      await db.connect();
      await db.query('update partners set jwks = $1 where login = $2', [JSON.stringify(keys), partner.login]);
      await db.end();
      assert.equal((await admin(`/admin/v1/partners/${partner.login}`, 'PATCH', { authMethods: ['password', 'private_key_jwt'] })).status, 200);
    });
    after(async () => {
      await Promise.all([a, b].filter(Boolean).map((instance) => stopGatewayProcess(instance)));
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      await client.query(`drop schema ${schema} cascade`);
      await client.end();
    });

    const token = (instance: GatewayProcess, assertion: string, dpop?: string) =>
      fetch(`${instance.base}/api/v1/oauth/token`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', ...(dpop ? { dpop } : {}) },
        body: form({ grant_type: 'client_credentials', client_assertion_type: CLIENT_ASSERTION_TYPE, client_assertion: assertion }),
      });
    const banks = (instance: GatewayProcess, accessToken: string, proof?: string) =>
      fetch(`${instance.base}/partner/provider/sbp/banks/`, {
        method: 'POST',
        headers: proof ? { authorization: `DPoP ${accessToken}`, dpop: proof } : { authorization: `Bearer ${accessToken}` },
      }).then((response) => response.status);

    it('refuses on B a client assertion already used on A', async () => {
      const assertion = await clientAssertion(key, partner.login, PUBLIC_URL);
      assert.equal((await token(a, assertion)).status, 200);
      const replay = await token(b, assertion);
      assert.equal(replay.status, 401);
      assert.equal(((await replay.json()) as { error: string }).error, 'invalid_client');
    });

    it('refuses on B a DPoP proof already used on A, at the token endpoint and at banks', async () => {
      const dpopKey = await testKey();
      const proof = await dpopProof(dpopKey, 'POST', TOKEN_URL);
      const issued = await token(a, await clientAssertion(key, partner.login, PUBLIC_URL), proof);
      assert.equal(issued.status, 200);
      const refused = await token(b, await clientAssertion(key, partner.login, PUBLIC_URL), proof);
      assert.equal(refused.status, 400);
      assert.equal(((await refused.json()) as { error: string }).error, 'invalid_dpop_proof');
      const { access_token: accessToken } = (await issued.json()) as { access_token: string };
      const banksProof = await dpopProof(dpopKey, 'POST', BANKS_URL, { accessToken });
      assert.equal(await banks(a, accessToken, banksProof), 200);
      assert.equal(await banks(b, accessToken, banksProof), 401);
      assert.equal(await banks(b, accessToken, await dpopProof(dpopKey, 'POST', BANKS_URL, { accessToken })), 200);
    });

    it('refuses on B, within 1 s, a token revoked on A', async () => {
      const issued = await token(a, await clientAssertion(key, partner.login, PUBLIC_URL));
      const { access_token: accessToken } = (await issued.json()) as { access_token: string };
      assert.equal(await banks(b, accessToken), 200, 'B knows the token (and caches its family)');
      const revoked = await fetch(`${a.base}/api/v1/oauth/revoke`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: form({ token: accessToken, client_assertion_type: CLIENT_ASSERTION_TYPE, client_assertion: await clientAssertion(key, partner.login, PUBLIC_URL) }),
      });
      assert.equal(revoked.status, 200);
      await waitFor(async () => (await banks(b, accessToken)) === 401, { message: 'the other instance to refuse the revoked token' });
    });

    it('when a refresh token is revoked on A, then B refuses it at once, and the access token of its login once the change feed tells it', async () => {
      const login = await fetch(`${a.base}/api/v1/login/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(partner) });
      assert.equal(login.status, 200);
      const session = (await login.json()) as { access_token: string; refresh_token: string };
      assert.equal(await banks(b, session.access_token), 200, 'B knows the login (and caches its family)');
      const revoked = await fetch(`${a.base}/api/v1/oauth/revoke`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: form({ token: session.refresh_token, token_type_hint: 'refresh_token', client_assertion_type: CLIENT_ASSERTION_TYPE, client_assertion: await clientAssertion(key, partner.login, PUBLIC_URL) }),
      });
      assert.equal(revoked.status, 200);
      const refreshed = await fetch(`${b.base}/api/v1/token/refresh/`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ refresh_token: session.refresh_token }) });
      assert.equal(refreshed.status, 401);
      await waitFor(async () => (await banks(b, session.access_token)) === 401, { message: 'the other instance to refuse the access token of the revoked login' });
    });
  });
}
