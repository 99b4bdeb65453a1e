/**
 * What the admin listener leaves in the audit trail when nobody proven is behind a request (issue 33, finding 6):
 * refused credentials on any method, lockout refusals included, each accounted for; searches and exports of the
 * trail itself (the filter, never the results); failed single sign-on callbacks counted per address and window;
 * and single sign-ons begun but not finished bounded per address, a start beyond it refused with a 429.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { SSO_PENDING_PER_ADDRESS } from '../../src/operators/sso/sso-sign-in.js';
import { testBackends } from '../support/test-databases.js';
import { startTestGateway, TEST_ADMIN_TOKEN, type TestGateway } from '../support/test-gateway.js';

const BOOTSTRAP = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };

/** An identity provider that only publishes its metadata: enough for `/sso/start` to build its redirect. */
async function startDiscoveryOnly(): Promise<{ issuer: string; server: Server }> {
  const server = createServer((request, response) => {
    const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    if (request.url !== '/.well-known/openid-configuration') return void response.writeHead(404).end();
    response.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({ issuer, authorization_endpoint: `${issuer}/auth`, token_endpoint: `${issuer}/token`, jwks_uri: `${issuer}/jwks`, response_types_supported: ['code'] }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { issuer: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

for (const backend of testBackends()) {
  describe(`the admin listener's audit trail on ${backend.name}`, () => {
    let t: TestGateway;
    let provider: { issuer: string; server: Server };
    before(async () => {
      provider = await startDiscoveryOnly();
      t = await startTestGateway(backend, {
        env: { THROTTLE_MAX_FAILURES: '5', OIDC_ISSUER: provider.issuer, OIDC_CLIENT_ID: 'console', OIDC_CLIENT_SECRET: 'a-client-secret', OIDC_ROLE_MAP: 'ops=operator' },
      });
    });
    after(async () => {
      await t?.close();
      provider?.server.close();
    });
    const entries = async (query: string) => {
      await t.gateway.admin.audit.flush();
      return (await t.admin.inject({ method: 'GET', url: `/admin/v1/audit?limit=500&${query}`, headers: BOOTSTRAP, remoteAddress: '127.0.0.1' })).json().entries as Array<Record<string, any>>;
    };
    const calls = (found: Array<Record<string, any>>) => found.reduce((sum, entry) => sum + entry.count, 0);

    it('when wrong tokens are sent to a GET route, through the lockout, then every refusal is accounted for in the trail', async () => {
      const address = '192.0.2.10';
      const statuses: number[] = [];
      for (let i = 0; i < 17; i++) {
        const response = await t.admin.inject({ method: 'GET', url: '/admin/v1/partners', headers: { authorization: `Bearer wrong-token-${i}` }, remoteAddress: address });
        statuses.push(response.statusCode);
      }
      assert.deepEqual(statuses, [...Array(5).fill(401), ...Array(12).fill(429)]);
      const found = (await entries('action=admin.auth')).filter((entry) => entry.clientAddress === address);
      const refused = found.filter((entry) => entry.reason === 'bad_admin_token');
      const lockedOut = found.filter((entry) => entry.reason === 'throttled');
      assert.equal(calls(refused), 5, 'each wrong token');
      assert.equal(calls(lockedOut), 12, 'each refusal at the lockout, counted');
      // Shared per second, and cut wherever a batch is written (every 250 ms): fewer entries than refusals, however slow the machine.
      assert.ok(lockedOut.length < 12, `the lockout's refusals share entries (${lockedOut.length} entries)`);
      assert.ok(found.every((entry) => entry.outcome === 'failure' && entry.operator === null));
      assert.ok(!JSON.stringify(found).includes('wrong-token'), 'no token in the trail');
    });

    it('when a GET carries no credential at all, then it is refused and leaves no entry (not a refused credential)', async () => {
      const address = '192.0.2.11';
      assert.equal((await t.admin.inject({ method: 'GET', url: '/admin/v1/partners', remoteAddress: address })).statusCode, 401);
      assert.equal((await entries('action=admin.auth')).filter((entry) => entry.clientAddress === address).length, 0);
    });

    it('when the trail is searched and exported, then each is audited with who and the filter, never what was found', async () => {
      const partner = await t.addPartner();
      const searched = await t.admin.inject({ method: 'GET', url: `/admin/v1/audit?partner=${partner.login}&outcome=failure&limit=5`, headers: BOOTSTRAP });
      assert.equal(searched.statusCode, 200);
      const from = new Date(Date.now() - 60_000).toISOString();
      const to = new Date(Date.now() + 60_000).toISOString();
      const exported = await t.admin.inject({ method: 'GET', url: `/admin/v1/audit/export?from=${from}&to=${to}&format=csv`, headers: BOOTSTRAP });
      assert.equal(exported.statusCode, 200);
      const searches = (await entries('action=audit.search')).filter((entry) => entry.details?.filter?.partner === partner.login);
      assert.equal(searches.length, 1);
      assert.deepEqual(searches[0]!.details, { filter: { partner: partner.login, outcome: 'failure' } });
      assert.deepEqual(searches[0]!.operator, { id: 'bootstrap', name: 'bootstrap', credential: 'bootstrap' });
      const exports = (await entries('action=audit.export')).filter((entry) => entry.details?.from === from);
      assert.equal(exports.length, 1);
      assert.deepEqual(Object.keys(exports[0]!.details).sort(), ['format', 'from', 'rows', 'to']);
    });

    it('when a follow polls the trail (after=), then its polls of one filter count into one entry a minute, shown once the minute ends', async () => {
      const poll = () => t.admin.inject({ method: 'GET', url: '/admin/v1/audit?action=follow-me&after=0', headers: BOOTSTRAP });
      for (let i = 0; i < 5; i++) assert.equal((await poll()).statusCode, 200);
      const beforeTheMinute = (await poll()).json().entries;
      assert.equal(beforeTheMinute.length, 0, 'a poll does not feed the next one');
      const polls = (await entries('action=audit.search')).filter((entry) => entry.details?.filter?.action === 'follow-me');
      assert.ok(polls.length <= 2, `one entry per minute (${polls.length}; two if a minute turned)`);
      assert.equal(calls(polls), 6);
    });

    it('when 300 failed single sign-on callbacks come from one address, then one entry counts them all', async () => {
      const address = '192.0.2.12';
      for (let i = 0; i < 300; i++) {
        const response = await t.admin.inject({ method: 'GET', url: `/sso/callback?error=access_denied&n=${i}`, remoteAddress: address });
        assert.equal(response.statusCode, 400);
      }
      await t.admin.inject({ method: 'GET', url: '/sso/callback?error=access_denied', remoteAddress: '192.0.2.13' });
      const found = await entries('action=session.sign-in');
      const mine = found.filter((entry) => entry.clientAddress === address);
      assert.ok(mine.length <= 2, `one entry per address and minute (${mine.length}; two if a minute turned)`);
      assert.equal(calls(mine), 300);
      assert.equal(mine[0]!.reason, 'sso_provider_error');
      assert.equal(found.filter((entry) => entry.clientAddress === '192.0.2.13').length, 1, 'another address has its own');
    });

    it('when 300 failed single sign-on callbacks come from 300 addresses of one IPv6 /64, then one entry counts them all', async () => {
      const ofTheBlock = (n: number) => `2001:db8:9:9::${(n + 1).toString(16)}`;
      for (let i = 0; i < 300; i++) {
        const response = await t.admin.inject({ method: 'GET', url: `/sso/callback?error=access_denied&n=${i}`, remoteAddress: ofTheBlock(i) });
        assert.equal(response.statusCode, 400);
      }
      const mine = (await entries('action=session.sign-in')).filter((entry) => String(entry.clientAddress).startsWith('2001:db8:9:9:'));
      assert.ok(mine.length <= 2, `one entry per /64 and minute (${mine.length}; two if a minute turned)`);
      assert.equal(calls(mine), 300);
      assert.equal(mine.at(-1)!.clientAddress, ofTheBlock(0), 'named by the first address');
    });

    it('when one address begins more single sign-ons than the bound, then the next is refused with a 429 JSON error and nothing is written', async () => {
      const address = '192.0.2.14';
      for (let i = 0; i < SSO_PENDING_PER_ADDRESS; i++) {
        const started = await t.admin.inject({ method: 'GET', url: '/sso/start', remoteAddress: address });
        assert.equal(started.statusCode, 302, started.body);
      }
      const pendingRows = async () => Number((await t.handle.db.selectFrom('sso_logins' as never).select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow()).n);
      const before = await pendingRows();
      const refused = await t.admin.inject({ method: 'GET', url: '/sso/start', remoteAddress: address });
      assert.equal(refused.statusCode, 429);
      assert.match(String(refused.headers['content-type']), /application\/json/);
      assert.match(refused.json().description_status, /Too many single sign-ons begun from this address/);
      assert.ok(Number(refused.headers['retry-after']) >= 1);
      assert.equal(await pendingRows(), before, 'no row for the refused start');
      assert.equal((await t.admin.inject({ method: 'GET', url: '/sso/start', remoteAddress: '192.0.2.15' })).statusCode, 302, 'another address may still begin');
    });

    it('when 60 single sign-ons begin at once from one address, then exactly the bound of them is written and the rest are refused with 429', async () => {
      const answers = await Promise.all(Array.from({ length: 60 }, () => t.admin.inject({ method: 'GET', url: '/sso/start', remoteAddress: '192.0.2.16' })));
      const statuses = answers.map((answer) => answer.statusCode);
      assert.deepEqual([statuses.filter((status) => status === 302).length, statuses.filter((status) => status === 429).length], [SSO_PENDING_PER_ADDRESS, 60 - SSO_PENDING_PER_ADDRESS], statuses.join(' '));
    });

    it('when the identity provider cannot be reached, then each start answers 502 and holds no place under the bound', async () => {
      const down = createServer((_request, response) => void response.writeHead(503).end());
      await new Promise<void>((resolve) => down.listen(0, '127.0.0.1', resolve));
      const unreachable = await startTestGateway(backend, {
        env: { OIDC_ISSUER: `http://127.0.0.1:${(down.address() as AddressInfo).port}`, OIDC_CLIENT_ID: 'console', OIDC_CLIENT_SECRET: 'a-client-secret', OIDC_ROLE_MAP: 'ops=operator' },
      });
      try {
        const statuses: number[] = [];
        for (let i = 0; i <= SSO_PENDING_PER_ADDRESS; i++) statuses.push((await unreachable.admin.inject({ method: 'GET', url: '/sso/start', remoteAddress: '192.0.2.17' })).statusCode);
        assert.deepEqual(statuses, Array(SSO_PENDING_PER_ADDRESS + 1).fill(502));
        const rows = await unreachable.handle.db.selectFrom('sso_logins' as never).select((eb) => eb.fn.countAll<string>().as('n')).executeTakeFirstOrThrow();
        assert.equal(Number(rows.n), 0);
      } finally {
        await unreachable.close();
        await new Promise((resolve) => down.close(resolve));
      }
    });

    it('when addresses of one IPv6 /64 each begin a single sign-on, then they share the bound of one address and another /64 may still begin', async () => {
      for (let i = 0; i < SSO_PENDING_PER_ADDRESS; i++) {
        const started = await t.admin.inject({ method: 'GET', url: '/sso/start', remoteAddress: `2001:db8:5:5::${(i + 1).toString(16)}` });
        assert.equal(started.statusCode, 302, started.body);
      }
      const refused = await t.admin.inject({ method: 'GET', url: '/sso/start', remoteAddress: '2001:db8:5:5:ffff:ffff:ffff:ffff' });
      assert.equal(refused.statusCode, 429, refused.body);
      assert.match(refused.json().description_status, /Too many single sign-ons begun from this address/);
      assert.equal((await t.admin.inject({ method: 'GET', url: '/sso/start', remoteAddress: '2001:db8:5:6::1' })).statusCode, 302, 'the next /64 may still begin');
    });
  });
}
