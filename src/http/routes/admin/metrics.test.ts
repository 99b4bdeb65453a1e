import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { encryptPassword } from '../../../../test/support/encrypt-password.js';
import { testBackends } from '../../../../test/support/test-databases.js';
import { startTestGateway, TEST_ADMIN_TOKEN, type TestGateway } from '../../../../test/support/test-gateway.js';
import { UNMATCHED_ROUTE } from '../../plugins/request-outcome.js';
import { sample } from '../../../../test/support/prometheus-sample.js';

const METRICS_TOKEN = 'metrics-scrape-token-0123456789abcdef0123';
const BANKS = '/partner/provider/sbp/banks/';
const LOGIN = '/api/v1/login/';

for (const backend of testBackends()) {
  describe(`GET /metrics on the admin listener (${backend.name})`, () => {
    let t: TestGateway;
    before(async () => {
      // A long cache TTL, so that a second call finds the first one's entries whatever the machine's load.
      t = await startTestGateway(backend, { env: { METRICS_TOKEN, CACHE_TTL_MS: '60000' } });
    });
    after(() => t.close());

    const scrape = async (token = METRICS_TOKEN) => {
      const response = await t.admin.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${token}` } });
      assert.equal(response.statusCode, 200, response.body);
      assert.match(String(response.headers['content-type']), /^text\/plain; version=0\.0\.4/);
      return response.body;
    };
    const login = async (partner: { login: string; password: string }) => {
      const response = await t.app.inject({ method: 'POST', url: LOGIN, payload: partner });
      assert.equal(response.statusCode, 200);
      return response.json().access_token as string;
    };
    const bearerBanks = (token: string) => t.app.inject({ method: 'POST', url: BANKS, headers: { authorization: `Bearer ${token}` } });
    const banksRequests = (text: string, status: string) =>
      sample(text, 'partner_gateway_http_requests_total', { listener: 'public', route: BANKS, method: 'POST', status }) ?? 0;

    it('counts requests by route template and status, with a latency histogram, and never shows a URL', async () => {
      const partner = await t.addPartner();
      const token = await login(partner);
      const before = await scrape();
      for (let i = 0; i < 3; i++) assert.equal((await bearerBanks(token)).statusCode, 200);
      const secret = await encryptPassword('a password that must never appear', t.gateway.partnerApi.jwks() as never);
      const refused = await t.app.inject({ method: 'POST', url: `${BANKS}?partnerName=${partner.login}&partnerPassword=${secret}&useAuthByCert=Y` });
      assert.equal(refused.statusCode, 401);
      await t.app.inject({ method: 'GET', url: '/no-such-page-4f1c?partnerPassword=secret-in-a-query' });
      const text = await scrape();

      assert.equal(banksRequests(text, '200') - banksRequests(before, '200'), 3);
      assert.equal(banksRequests(text, '401') - banksRequests(before, '401'), 1);
      const histogramCount = (body: string) =>
        sample(body, 'partner_gateway_http_request_duration_seconds_count', { listener: 'public', route: BANKS, method: 'POST' }) ?? 0;
      assert.equal(histogramCount(text) - histogramCount(before), 4);
      assert.ok((sample(text, 'partner_gateway_http_request_duration_seconds_bucket', { listener: 'public', route: BANKS, method: 'POST', le: '+Inf' }) ?? 0) >= 4);
      assert.ok((sample(text, 'partner_gateway_http_requests_total', { listener: 'public', route: UNMATCHED_ROUTE, method: 'GET', status: '404' }) ?? 0) >= 1);
      assert.doesNotMatch(text, /no-such-page|secret-in-a-query|partnerPassword/);
      assert.ok(!text.includes(secret));
    });

    it('counts refused authentications by reason', async () => {
      const partner = await t.addPartner();
      const reasonCount = (text: string, reason: string) => sample(text, 'partner_gateway_auth_failures_total', { listener: 'public', reason }) ?? 0;
      const before = await scrape();
      for (let i = 0; i < 2; i++) {
        assert.equal((await t.app.inject({ method: 'POST', url: LOGIN, payload: { login: partner.login, password: 'not the password' } })).statusCode, 401);
      }
      assert.equal((await bearerBanks('not.a.token')).statusCode, 401);
      const text = await scrape();
      assert.equal(reasonCount(text, 'wrong_password') - reasonCount(before, 'wrong_password'), 2);
      assert.equal(reasonCount(text, 'invalid_token') - reasonCount(before, 'invalid_token'), 1);
    });

    it('reports cache lookups and hit ratios of the partner, token-family, bank-list and password caches', async () => {
      const partner = await t.addPartner();
      const token = await login(partner);
      await bearerBanks(token);
      const before = await scrape();
      assert.equal((await bearerBanks(token)).statusCode, 200);
      const text = await scrape();
      const lookups = (body: string, cache: string, result: string) => sample(body, 'partner_gateway_cache_lookups_total', { cache, result }) ?? 0;
      // A call after another finds the partner, its token family and the list in memory.
      for (const cache of ['partners', 'token_families', 'banks']) {
        assert.ok(lookups(text, cache, 'hit') > lookups(before, cache, 'hit'), `${cache} hit counted`);
        const hits = lookups(text, cache, 'hit');
        const ratio = sample(text, 'partner_gateway_cache_hit_ratio', { cache });
        assert.equal(ratio, hits / (hits + lookups(text, cache, 'miss')));
      }
      assert.notEqual(sample(text, 'partner_gateway_cache_hit_ratio', { cache: 'passwords' }), undefined);
    });

    it('reports argon2 verifications, audit entries waiting, event-loop lag and, on PostgreSQL, pool usage', async () => {
      const partner = await t.addPartner();
      const before = await scrape();
      await login(partner);
      await t.gateway.runtime.auditTrail.flush();
      const text = await scrape();
      const verifications = (body: string) => sample(body, 'partner_gateway_argon2_verifications_total') ?? 0;
      assert.ok(verifications(text) - verifications(before) >= 1);
      assert.equal(sample(text, 'partner_gateway_argon2_queue', { state: 'waiting' }), 0);
      assert.equal(sample(text, 'partner_gateway_audit_pending_entries'), 0);
      assert.equal(sample(text, 'partner_gateway_jwe_replay_conflicts_total'), 0);
      assert.equal(sample(text, 'partner_gateway_audit_dropped_entries_total'), 0);
      assert.ok((sample(text, 'nodejs_eventloop_lag_seconds') ?? -1) >= 0);
      const total = sample(text, 'partner_gateway_db_pool_connections', { state: 'total' });
      if (backend.name === 'postgres') {
        assert.ok(total !== undefined && total >= 1);
        assert.equal(sample(text, 'partner_gateway_db_pool_connections', { state: 'waiting' }), 0);
      } else {
        assert.equal(total, undefined);
      }
    });

    it('counts audit entries the database refused for their data', async () => {
      // A status beyond PostgreSQL's integer: the one kind of entry the writer has to drop.
      t.gateway.runtime.auditTrail.record({ at: new Date(), action: 'login', outcome: 'failure', status: 2 ** 31, partner: null, clientAddress: null, reason: null, requestId: 'metrics-dropped', details: null });
      await t.gateway.runtime.auditTrail.flush();
      assert.equal(sample(await scrape(), 'partner_gateway_audit_dropped_entries_total'), 1);
    });

    it('reports the age of the oldest audit entry and, on PostgreSQL, the day partitions', async () => {
      const partner = await t.addPartner();
      await login(partner);
      await t.gateway.runtime.auditTrail.flush();
      await t.gateway.runtime.maintainAudit();
      const text = await scrape();
      const age = sample(text, 'partner_gateway_audit_oldest_entry_age_seconds');
      assert.ok(age !== undefined && age > 0 && age < 3600, `oldest entry age ${age}`);
      const partitions = sample(text, 'partner_gateway_audit_partitions');
      if (backend.name === 'postgres') assert.ok(partitions !== undefined && partitions >= 8, `partitions ${partitions}`);
      else assert.equal(partitions, 0);
    });

    it('when a login reads the database, then the database latency histogram gets its statements, and the database is up', async () => {
      const selects = (text: string) => sample(text, 'partner_gateway_database_query_duration_seconds_count', { operation: 'select', outcome: 'ok' }) ?? 0;
      const before = await scrape();
      await login(await t.addPartner());
      const text = await scrape();
      assert.ok(selects(text) > selects(before), 'select statements were timed');
      assert.ok((sample(text, 'partner_gateway_database_query_duration_seconds_bucket', { operation: 'insert', outcome: 'ok', le: '+Inf' }) ?? 0) > 0, 'the partner and token family inserts were timed');
      assert.equal(sample(text, 'partner_gateway_dependency_up', { dependency: 'database' }), 1);
      assert.equal(sample(text, 'partner_gateway_dependency_up', { dependency: 'redis' }), undefined, 'no Redis without REDIS_URL');
      assert.doesNotMatch(text, /partner_gateway_database_query_duration_seconds_count\{[^}]*(select |from |where )/i, 'no SQL in a label');
    });

    it('counts admin requests under the admin listener', async () => {
      const before = await scrape();
      await t.admin.inject({ method: 'GET', url: '/admin/v1/partners', headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } });
      const text = await scrape();
      const listed = (body: string) => sample(body, 'partner_gateway_http_requests_total', { listener: 'admin', route: '/admin/v1/partners', method: 'GET', status: '200' }) ?? 0;
      assert.equal(listed(text) - listed(before), 1);
    });

    it('is read with the admin token or the metrics token, and the metrics token opens nothing else', async () => {
      await scrape(TEST_ADMIN_TOKEN);
      await scrape(METRICS_TOKEN);
      for (const headers of [{}, { authorization: 'Bearer not-the-token-at-all-0123456789abcdef' }]) {
        const refused = await t.admin.inject({ method: 'GET', url: '/metrics', headers });
        assert.equal(refused.statusCode, 401);
        assert.equal(typeof refused.json().description_status, 'string');
      }
      const metricsTokenElsewhere = await t.admin.inject({ method: 'GET', url: '/admin/v1/partners', headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
      assert.equal(metricsTokenElsewhere.statusCode, 401);
    });

    it('is not served on the public listener', async () => {
      const response = await t.app.inject({ method: 'GET', url: '/metrics' });
      assert.equal(response.statusCode, 404);
    });
  });
}
