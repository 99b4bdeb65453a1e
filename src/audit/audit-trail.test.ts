import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { sql } from 'kysely';
import { AUDIT_COUNT_LIMIT } from '@partner-gateway/contract/admin-audit';
import { encryptPassword } from '../../test/support/encrypt-password.js';
import { testBackends } from '../../test/support/test-databases.js';
import { startTestGateway, TEST_ADMIN_TOKEN, type TestGateway } from '../../test/support/test-gateway.js';
import { CLIENT_ASSERTION_TYPE, FORM_HEADERS, clientAssertion, dpopProof, form, registerKeys, testKey } from '../../test/support/oauth-client.js';

interface Entry {
  id: string;
  at: string;
  action: string;
  outcome: string;
  status: number;
  partner: string | null;
  clientAddress: string | null;
  reason: string | null;
  requestId: string | null;
  details: Record<string, unknown> | null;
}

for (const backend of testBackends()) {
  describe(`audit trail on ${backend.name}`, () => {
    let t: TestGateway;
    before(async () => {
      t = await startTestGateway(backend);
    });
    after(() => t.close());

    const admin = (method: string, url: string, payload?: unknown) =>
      t.admin.inject({ method: method as 'GET', url, headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` }, ...(payload === undefined ? {} : { payload: payload as object }) });
    const audit = async (query: string) => {
      const response = await admin('GET', `/admin/v1/audit?${query}`);
      assert.equal(response.statusCode, 200, response.body);
      return response.json() as { entries: Entry[]; nextCursor: string | null };
    };

    it('records logins, refreshes, logouts and banks calls with partner, address, outcome, status, reason and request id', async () => {
      const partner = await t.addPartner();
      const jwks = (await t.app.inject({ method: 'GET', url: '/.well-known/jwks.json' })).json();
      const wrong = await t.app.inject({ method: 'POST', url: '/api/v1/login/', payload: { login: partner.login, password: 'wrong password' } });
      const session = (await t.app.inject({ method: 'POST', url: '/api/v1/login/', payload: partner })).json();
      const refreshed = (await t.app.inject({ method: 'POST', url: '/api/v1/token/refresh/', payload: { refresh_token: session.refresh_token } })).json();
      await t.app.inject({ method: 'POST', url: '/partner/provider/sbp/banks/', headers: { authorization: `Bearer ${refreshed.access_token}` } });
      const jwe = await encryptPassword(partner.password, jwks);
      const url = `/partner/provider/sbp/banks/?partnerName=${partner.login}&partnerPassword=${jwe}&useAuthByCert=Y`;
      await t.app.inject({ method: 'POST', url });
      await t.app.inject({ method: 'POST', url });
      await t.app.inject({ method: 'POST', url: '/partner/provider/sbp/banks/', headers: { authorization: `Bearer ${refreshed.access_token}` }, remoteAddress: '192.0.2.1' });
      await t.app.inject({ method: 'POST', url: '/api/v1/logout/', headers: { authorization: `Bearer ${refreshed.access_token}` } });

      const { entries } = await audit(`partner=${partner.login}`);
      const seen = entries.reverse().map((e) => `${e.action}:${e.outcome}:${e.status}:${e.reason ?? ''}`);
      assert.deepEqual(seen, [
        'login:failure:401:wrong_password',
        'login:success:200:',
        'refresh:success:200:',
        'banks:success:200:',
        'banks:success:200:',
        'banks:failure:401:replayed_jti',
        'banks:failure:403:ip_not_allowed',
        'logout:success:204:',
      ]);
      assert.ok(entries.every((e) => e.requestId && e.at && e.partner === partner.login));
      assert.equal(entries.at(-2)!.clientAddress, '192.0.2.1');
      const loggedIds = t.logs.map((line) => JSON.parse(line).reqId);
      assert.ok(loggedIds.includes(entries[0]!.requestId), 'the audit entry and the log line share the request id');
      const stored = JSON.stringify(entries);
      for (const secret of [partner.password, jwe, session.access_token, session.refresh_token, refreshed.refresh_token]) assert.ok(!stored.includes(secret));
      assert.ok(wrong.statusCode === 401);
    });

    it('records admin changes with before and after, never a password or hash', async () => {
      const partner = await t.addPartner();
      await admin('PATCH', `/admin/v1/partners/${partner.login}`, { status: 'blocked', password: 'secret new password', ipAllowlist: ['10.0.0.0/8'] });
      await admin('POST', '/admin/v1/banks', { bic: '044030002', name: 'Аудит Банк' });
      await admin('DELETE', '/admin/v1/banks/044030002');
      const { entries } = await audit('action=partner.update');
      const change = entries.find((e) => e.partner === partner.login)!;
      assert.equal(change.outcome, 'success');
      // The fields changed, before and after; every other audited field the same on both sides, whatever they are.
      const { before, after, ...rest } = change.details as { before: Record<string, unknown>; after: Record<string, unknown> };
      assert.deepEqual({ status: before.status, ipAllowlist: before.ipAllowlist, rewardTypes: before.rewardTypes }, { status: 'active', ipAllowlist: ['127.0.0.1/32', '::1/128'], rewardTypes: ['sbp'] });
      assert.deepEqual(after, { ...before, status: 'blocked', ipAllowlist: ['10.0.0.0/8'] });
      assert.deepEqual(rest, { passwordChanged: true, sessionsEnded: true });
      assert.ok(!Object.keys(before).some((name) => /password(?!Until)|hash/i.test(name)), Object.keys(before).join(', '));
      const everything = JSON.stringify((await audit('limit=1000')).entries);
      assert.ok(!everything.includes('secret new password') && !everything.includes('argon2'));
      assert.equal((await audit('action=bank.add')).entries[0]!.details!.after!.constructor, Object);
      assert.deepEqual((await audit('action=bank.remove')).entries[0]!.details, { bic: '044030002', version: 3 });
    });

    it('when a search matches more entries than AUDIT_COUNT_LIMIT, then its total says "more than" that many; a narrower one is counted exactly', async () => {
      const at = new Date();
      for (let i = 0; i < AUDIT_COUNT_LIMIT + 5; i++) {
        t.gateway.runtime.auditTrail.record({ at, action: 'login', outcome: 'failure', status: 401, partner: 'count-many', clientAddress: '192.0.2.9', reason: 'wrong_password', requestId: `count-${i}`, details: null });
      }
      const many = (await admin('GET', '/admin/v1/audit?partner=count-many&limit=10')).json() as { total: { count: number; capped: boolean } };
      assert.deepEqual(many.total, { count: AUDIT_COUNT_LIMIT, capped: true });
      const one = (await admin('GET', '/admin/v1/audit?partner=count-many&requestId=count-7')).json() as { total: { count: number; capped: boolean } };
      assert.deepEqual(one.total, { count: 1, capped: false });
    });

    it('filters by partner, outcome, reason and time, and pages with a cursor', async () => {
      const partner = await t.addPartner();
      const since = new Date().toISOString();
      for (let i = 0; i < 5; i++) await t.app.inject({ method: 'POST', url: '/api/v1/login/', payload: { login: partner.login, password: `wrong ${i}` } });
      await t.app.inject({ method: 'POST', url: '/api/v1/login/', payload: partner });
      const failures = await audit(`partner=${partner.login}&outcome=failure&reason=wrong_password&from=${since}`);
      assert.equal(failures.entries.length, 5);
      assert.equal((await audit(`partner=${partner.login}&outcome=success`)).entries.length, 1);
      assert.equal((await audit(`partner=${partner.login}&to=${since}`)).entries.length, 0);
      const pages: string[] = [];
      let cursor: string | null = '';
      while (cursor !== null) {
        const page: { entries: Entry[]; nextCursor: string | null } = await audit(`partner=${partner.login}&limit=2${cursor ? `&cursor=${cursor}` : ''}`);
        pages.push(...page.entries.map((e) => e.id));
        cursor = page.nextCursor;
      }
      assert.equal(pages.length, 6);
      assert.equal(new Set(pages).size, 6);
      assert.deepEqual([...pages].sort((a, b) => Number(b) - Number(a)), pages, 'newest first');
      const newer = await audit(`partner=${partner.login}&after=${pages.at(-1)}`);
      assert.equal(newer.entries.length, 5, 'following from an id gives what came after it, oldest first');
      assert.equal((await admin('GET', '/admin/v1/audit?limit=0')).statusCode, 422);
      assert.equal((await admin('GET', '/admin/v1/audit?outcome=maybe')).statusCode, 422);
    });

    it('records a refused admin request too', async () => {
      await t.admin.inject({ method: 'DELETE', url: '/admin/v1/partners/anyone', headers: { authorization: 'Bearer wrong-token' } });
      const refused = (await audit('action=partner.delete&outcome=failure')).entries[0]!;
      assert.equal(refused.status, 401);
      assert.equal(refused.reason, 'bad_admin_token');
    });
  });
}

for (const backend of testBackends()) {
  describe(`audit backlog on ${backend.name}`, () => {
    let t: TestGateway;
    before(async () => {
      t = await startTestGateway(backend, { env: { AUDIT_QUEUE_MAX: '5' } });
    });
    after(() => t.close());

    it('refuses audited calls with 503 while AUDIT_QUEUE_MAX entries wait for the database, serves them again once written, and loses none', async () => {
      const partner = await t.addPartner();
      const session = (await t.app.inject({ method: 'POST', url: '/api/v1/login/', payload: partner })).json();
      await t.gateway.runtime.auditTrail.flush();
      const banks = () => t.app.inject({ method: 'POST', url: '/partner/provider/sbp/banks/', headers: { authorization: `Bearer ${session.access_token}` } });
      // Logins fill the queue: each keeps an entry of its own (successful bearer calls would share one).
      const login = () => t.app.inject({ method: 'POST', url: '/api/v1/login/', payload: partner });
      // The table out of reach is what an outage looks like to the writer: every write fails and stays queued.
      await sql`alter table audit_log rename to audit_log_away`.execute(t.handle.db);
      try {
        for (let i = 0; i < 5; i++) assert.equal((await login()).statusCode, 200);
        await assert.rejects(t.gateway.runtime.auditTrail.flush());
        const refused = await banks();
        assert.equal(refused.statusCode, 503);
        assert.equal(refused.headers['retry-after'], '5');
        assert.deepEqual(refused.json(), { description_status: 'Service is busy; repeat the request later' });
        assert.equal((await login()).statusCode, 503);
        assert.equal((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode, 200, 'calls that are not audited go on');
        assert.equal(t.gateway.runtime.auditTrail.pending(), 5, 'refused calls did nothing and add no entry');
      } finally {
        await sql`alter table audit_log_away rename to audit_log`.execute(t.handle.db);
      }
      await t.gateway.runtime.auditTrail.flush();
      assert.equal((await banks()).statusCode, 200);
      await t.gateway.runtime.auditTrail.flush();
      const rows = await t.gateway.admin.audit.query({ partner: partner.login, limit: 100 });
      assert.deepEqual(
        rows.map((row) => `${row.action} ${row.status}`),
        ['banks 200', 'login 200', 'login 200', 'login 200', 'login 200', 'login 200', 'login 200'],
      );
    });
  });
}

for (const backend of testBackends()) {
  describe(`aggregated bearer banks entries on ${backend.name}`, () => {
    let t: TestGateway;
    before(async () => {
      t = await startTestGateway(backend);
    });
    after(() => t.close());

    it('counts successful bearer banks calls of one token within a second in one entry, and keeps every failure and login apart', async () => {
      const partner = await t.addPartner();
      const first = (await t.app.inject({ method: 'POST', url: '/api/v1/login/', payload: partner })).json();
      const second = (await t.app.inject({ method: 'POST', url: '/api/v1/login/', payload: partner })).json();
      const call = (token: string, remoteAddress = '127.0.0.1', scheme = 'Bearer') =>
        t.app.inject({ method: 'POST', url: '/partner/provider/sbp/banks/', headers: { authorization: `${scheme} ${token}` }, remoteAddress });
      const answers = await Promise.all([
        ...Array.from({ length: 40 }, () => call(first.access_token)),
        ...Array.from({ length: 10 }, () => call(second.access_token)),
        // Another header (the scheme in lower case) ending as the first does: its own key, not the first one's.
        ...Array.from({ length: 5 }, () => call(first.access_token, '127.0.0.1', 'bearer')),
        ...Array.from({ length: 3 }, () => call(first.access_token, '192.0.2.1')),
      ]);
      assert.equal(answers.filter((answer) => answer.statusCode === 200).length, 55);
      await t.gateway.runtime.auditTrail.flush();
      const entries = await t.gateway.admin.audit.query({ partner: partner.login, limit: 1000 });
      const banks = entries.filter((entry) => entry.action === 'banks');
      const successes = banks.filter((entry) => entry.outcome === 'success');
      assert.equal(
        banks.reduce((sum, entry) => sum + entry.count, 0),
        answers.length,
        'the counts add up to the calls answered',
      );
      assert.ok(successes.length < 55 && successes.length >= 3, `successes were aggregated (${successes.length} entries for 55 calls)`);
      assert.equal(new Set(successes.map((entry) => entry.details!.token)).size, 3, 'one entry per Authorization header (per second)');
      const biggest = successes.reduce((best, entry) => (entry.count > best.count ? entry : best));
      assert.ok(biggest.count > 1 && biggest.lastRequestId !== null && biggest.lastRequestId !== biggest.requestId, 'first and last request id');
      assert.ok(!JSON.stringify(entries).includes(first.access_token), 'the token itself is not stored');
      const failures = banks.filter((entry) => entry.outcome === 'failure');
      assert.equal(failures.length, 3, 'each failure keeps its own entry');
      assert.ok(failures.every((entry) => entry.count === 1 && entry.reason === 'ip_not_allowed'));
      assert.equal(entries.filter((entry) => entry.action === 'login').length, 2);
    });
  });
}

for (const backend of testBackends()) {
  describe(`aggregated client-credentials grants on ${backend.name}`, () => {
    let t: TestGateway;
    before(async () => {
      t = await startTestGateway(backend, { env: { PUBLIC_URL: 'http://127.0.0.1:8080' } });
    });
    after(() => t.close());

    it('counts successful grants of one method and binding within a second in one entry, and keeps every refusal apart', async () => {
      const partner = await t.addPartner();
      const key = await testKey();
      await registerKeys(t.gateway, partner.login, [key]);
      const grant = async (options: { assertion?: string; dpop?: boolean; remoteAddress?: string } = {}) =>
        t.app.inject({
          method: 'POST',
          url: '/api/v1/oauth/token',
          remoteAddress: options.remoteAddress ?? '127.0.0.1',
          headers: { ...FORM_HEADERS, ...(options.dpop ? { dpop: await dpopProof(await testKey(), 'POST', 'http://127.0.0.1:8080/api/v1/oauth/token') } : {}) },
          payload: form({
            grant_type: 'client_credentials',
            client_assertion_type: CLIENT_ASSERTION_TYPE,
            client_assertion: options.assertion ?? (await clientAssertion(key, partner.login, 'http://127.0.0.1:8080')),
          }),
        });
      const replayed = await clientAssertion(key, partner.login, 'http://127.0.0.1:8080');
      const requests = [
        ...Array.from({ length: 30 }, () => grant()),
        ...Array.from({ length: 10 }, () => grant({ dpop: true })),
        grant({ assertion: replayed }),
        grant({ assertion: replayed }),
        grant({ remoteAddress: '192.0.2.1' }),
      ];
      const answers = await Promise.all(requests);
      assert.equal(answers.filter((answer) => answer.statusCode === 200).length, 41);
      await t.gateway.runtime.auditTrail.flush();
      const entries = (await t.gateway.admin.audit.query({ partner: partner.login, action: 'token', limit: 1000 })).filter((entry) => entry.action === 'token');
      assert.equal(entries.reduce((sum, entry) => sum + entry.count, 0), answers.length, 'the counts add up to the grants answered');
      const successes = entries.filter((entry) => entry.outcome === 'success');
      assert.ok(successes.length >= 2 && successes.length < 41, `grants were aggregated (${successes.length} entries for 41 grants)`);
      assert.equal(successes.filter((entry) => entry.details?.bound === true).reduce((sum, entry) => sum + entry.count, 0), 10, 'bound grants counted apart');
      assert.ok(successes.every((entry) => entry.details?.method === 'private_key_jwt'));
      const failures = entries.filter((entry) => entry.outcome === 'failure');
      assert.deepEqual(failures.map((entry) => [entry.count, entry.reason, entry.clientAddress]).sort(), [
        [1, 'ip_not_allowed', '192.0.2.1'],
        [1, 'client_assertion_replayed', '127.0.0.1'],
      ].sort());
    });
  });
}
