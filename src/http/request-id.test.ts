import assert from 'node:assert/strict';
import { request as httpRequest, type OutgoingHttpHeaders } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { connect, type AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { REQUEST_ID_REGEXP } from '@partner-gateway/contract/patterns';
import { errors, texts } from '../errors.js';
import { loadTlsFiles } from '../mtls/tls-files.js';
import { startTlsListener, type TlsListener } from '../mtls/tls-listener.js';
import { createTestPki } from '../../test/support/openssl-certificates.js';
import { testBackends } from '../../test/support/test-databases.js';
import { startTestGateway, TEST_ADMIN_TOKEN, type TestGateway } from '../../test/support/test-gateway.js';
import { waitFor } from '../../test/support/wait-for.js';
import { REQUEST_TIMEOUTS } from './app.js';
import { clientErrorHandler } from './plugins/error-handler.js';

interface Answer {
  status: number;
  requestId: string | string[] | undefined;
  body: string;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const LOGIN = '/api/v1/login/';
const BANKS = '/partner/provider/sbp/banks/';
const admin = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };

/** One request over a real connection; a header given as an array is sent as that many header lines. */
function send(base: string, method: string, path: string, headers: OutgoingHttpHeaders = {}, body?: unknown, ca?: string): Promise<Answer> {
  const url = new URL(path, base);
  const payload = body === undefined ? undefined : JSON.stringify(body);
  const options = { method, headers: { ...headers, ...(payload === undefined ? {} : { 'content-type': 'application/json' }) }, agent: false as const, ...(ca ? { ca } : {}) };
  return new Promise((resolve, reject) => {
    const req = (url.protocol === 'https:' ? httpsRequest : httpRequest)(url, options, (res) => {
      let text = '';
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, requestId: res.headers['x-request-id'], body: text }));
    });
    req.on('error', reject);
    req.end(payload);
  });
}

/** The audit search over HTTP. */
async function searchAudit(t: { adminBase: string }, query: string) {
  const answer = await send(t.adminBase, 'GET', `/admin/v1/audit?${query}`, admin);
  return { ...answer, json: JSON.parse(answer.body) as { entries: Array<{ requestId: string | null; lastRequestId: string | null; partner: string | null; action: string; count: number; outcome: string }>; description_status?: string; errors?: Array<{ field: string }> } };
}

for (const backend of testBackends()) {
  describe(`request ids (X-Request-Id) on ${backend.name}`, () => {
    let t: TestGateway;
    let base = '';
    let adminBase = '';
    before(async () => {
      t = await startTestGateway(backend);
      base = await t.app.listen({ host: '127.0.0.1', port: 0 });
      adminBase = await t.admin.listen({ host: '127.0.0.1', port: 0 });
    });
    after(() => t.close());

    const requestLine = (id: string) => t.logs.map((line) => JSON.parse(line) as { reqId?: string; msg?: string; status?: number }).find((line) => line.msg === 'request' && line.reqId === id);

    it('when a caller sends no X-Request-Id, then every answer of both listeners carries a fresh UUID, also on refusals', async () => {
      const seen = new Set<string>();
      const answers = [
        await send(base, 'GET', '/healthz'),
        await send(base, 'GET', '/nowhere'),
        await send(base, 'DELETE', LOGIN),
        await send(base, 'POST', LOGIN, {}, { login: 'nobody-at-all', password: 'not the password' }),
        await send(adminBase, 'GET', '/admin/v1/partners'),
        await send(adminBase, 'GET', '/admin/v1/partners', admin),
      ];
      assert.deepEqual(answers.map((answer) => answer.status), [200, 404, 405, 401, 401, 200]);
      for (const answer of answers) {
        assert.match(String(answer.requestId), UUID);
        seen.add(String(answer.requestId));
      }
      assert.equal(seen.size, answers.length, 'one id per request');
      // The seed's error body is unchanged: the id travels in the header only.
      assert.deepEqual(JSON.parse(answers[3]!.body), { description_status: texts.unauthorized });
      assert.deepEqual(JSON.parse(answers[1]!.body), { description_status: errors.notFound().description });
      await waitFor(() => requestLine(String(answers[3]!.requestId)));
    });

    it('when a caller sends a well-formed X-Request-Id, then both listeners keep it, and the log line names the request by it', async () => {
      let n = 0;
      for (const [listener, path, headers] of [
        [base, '/healthz', {}],
        [base, LOGIN, {}],
        [adminBase, '/admin/v1/partners', admin],
        [adminBase, '/admin/v1/partners', {}],
      ] as const) {
        n += 1;
        // Every allowed character, and the longest id kept (64 characters).
        for (const id of [`Acme-7f3c.${n}_x`, `${String(n).repeat(60)}._-Z`]) {
          const answer = await send(listener, path === LOGIN ? 'POST' : 'GET', path, { ...headers, 'x-request-id': id }, path === LOGIN ? { login: 'nobody-at-all', password: 'not the password' } : undefined);
          assert.equal(answer.requestId, id, `${listener}${path}`);
          const line = await waitFor(() => requestLine(id));
          assert.equal(line.status, answer.status);
        }
      }
    });

    it('when the X-Request-Id is too long, has another character, is empty or is sent twice, then it is replaced by a generated one, never refused and never echoed', async () => {
      const malformed: Array<string | string[]> = [
        'a'.repeat(65),
        'has space',
        'comma,separated',
        'semi;colon',
        'quote"}{"partner":"acme',
        'slash/and:colon',
        'tab\there',
        'caf\u00e9',
        ['twice-1', 'twice-2'],
        ['same', 'same'],
      ];
      for (const value of malformed) {
        for (const [listener, headers] of [
          [base, {}],
          [adminBase, admin],
        ] as const) {
          const answer = await send(listener, 'GET', listener === base ? '/healthz' : '/admin/v1/partners', { ...headers, 'x-request-id': value });
          assert.equal(answer.status, 200, JSON.stringify(value));
          assert.match(String(answer.requestId), UUID, JSON.stringify(value));
          await waitFor(() => requestLine(String(answer.requestId)));
        }
      }
      const logged = t.logs.join('\n');
      for (const value of ['quote"}{"partner":"acme', 'slash/and:colon', 'twice-1']) assert.ok(!logged.includes(value) && !logged.includes(JSON.stringify(value).slice(1, -1)), `${value} reached the log`);
    });

    it('when any header value is sent as X-Request-Id, then the answer keeps it exactly when it is 1 to 64 of [A-Za-z0-9._-]', async () => {
      const value = fc.oneof(
        fc.stringMatching(/^[A-Za-z0-9._-]{1,70}$/),
        fc.array(fc.oneof(fc.integer({ min: 0x21, max: 0x7e }), fc.constant(0x20)), { minLength: 1, maxLength: 70 }).map((codes) => String.fromCharCode(...codes).trim()),
      );
      await fc.assert(
        fc.asyncProperty(value, async (id) => {
          const answer = await send(base, 'GET', '/healthz', id === '' ? {} : { 'x-request-id': id });
          if (REQUEST_ID_REGEXP.test(id)) assert.equal(answer.requestId, id);
          else assert.ok(UUID.test(String(answer.requestId)) && answer.requestId !== id, `${id} -> ${String(answer.requestId)}`);
        }),
        { numRuns: 150 },
      );
    });

    it('when Node cannot parse a request, then the JSON refusal still carries a generated X-Request-Id', async () => {
      const { port } = new URL(base);
      const socket = connect(Number(port), '127.0.0.1');
      let answer = '';
      socket.on('data', (chunk) => (answer += String(chunk)));
      socket.write('GET /healthz HTTP/1.1\r\nHost: gateway\r\nx-request-id: kept-not\r\nbroken header line\r\n\r\n');
      await new Promise((resolve) => socket.on('close', resolve));
      assert.match(answer, /^HTTP\/1\.1 400 /);
      assert.match(answer, /\r\nX-Request-Id: [0-9a-f-]{36}\r\n/);
      assert.deepEqual(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4)), { description_status: errors.badRequest().description });
    });

    it("when a partner's call and an admin change come with an id, then the audit entry keeps it as given and the audit search finds it by requestId", async () => {
      const partner = await t.addPartner();
      const loginId = `support-ticket-${backend.name}-1`;
      const login = await send(base, 'POST', LOGIN, { 'x-request-id': loginId }, partner);
      assert.equal(login.status, 200);
      const failedId = `support-ticket-${backend.name}-2`;
      assert.equal((await send(base, 'POST', LOGIN, { 'x-request-id': failedId }, { ...partner, password: 'not the password' })).status, 401);
      const changeId = `change-${backend.name}.3`;
      assert.equal((await send(adminBase, 'PATCH', `/admin/v1/partners/${partner.login}`, { ...admin, 'x-request-id': changeId }, { ipAllowlist: ['127.0.0.1', '::1', '10.0.0.0/8'] })).status, 200);

      for (const [id, action, outcome] of [
        [loginId, 'login', 'success'],
        [failedId, 'login', 'failure'],
        [changeId, 'partner.update', 'success'],
      ] as const) {
        const found = await searchAudit({ adminBase }, `requestId=${id}`);
        assert.equal(found.status, 200);
        assert.deepEqual(
          found.json.entries.map((entry) => ({ requestId: entry.requestId, action: entry.action, outcome: entry.outcome, partner: entry.partner })),
          [{ requestId: id, action, outcome, partner: partner.login }],
        );
      }
      // The filter is a filter: another id finds nothing, and it combines with the others.
      assert.deepEqual((await searchAudit({ adminBase }, 'requestId=nobody-sent-this')).json.entries, []);
      assert.deepEqual((await searchAudit({ adminBase }, `requestId=${loginId}&outcome=failure`)).json.entries, []);
    });

    it('when a bearer banks call comes with its own id, then it keeps an entry of its own; calls without one are still counted, and found by their first or last id', async () => {
      const partner = await t.addPartner();
      const token = JSON.parse((await send(base, 'POST', LOGIN, {}, partner)).body).access_token as string;
      const bearer = { authorization: `Bearer ${token}` };
      const named = [`banks-${backend.name}-a`, `banks-${backend.name}-b`, `banks-${backend.name}-c`];
      for (const id of named) assert.equal((await send(base, 'POST', BANKS, { ...bearer, 'x-request-id': id })).status, 200);
      for (const id of named) {
        const found = (await searchAudit({ adminBase }, `requestId=${id}`)).json.entries;
        assert.deepEqual(found.map((entry) => ({ requestId: entry.requestId, count: entry.count, action: entry.action })), [{ requestId: id, count: 1, action: 'banks' }]);
      }

      // Without ids, the calls of one second share an entry: the search finds it by its first and its last id.
      const counted = await waitFor(async () => {
        for (let call = 0; call < 5; call++) assert.equal((await send(base, 'POST', BANKS, bearer)).status, 200);
        const entries = (await searchAudit({ adminBase }, `partner=${partner.login}&action=banks`)).json.entries;
        return entries.find((entry) => entry.count > 1);
      });
      for (const id of [counted.requestId!, counted.lastRequestId!]) {
        const found = (await searchAudit({ adminBase }, `requestId=${id}`)).json.entries;
        assert.equal(found.length, 1, id);
        assert.equal(found[0]!.count, counted.count);
      }
    });

    it("when one partner sends another's request id, then the search shows both calls, each under the partner that made it", async () => {
      const victim = await t.addPartner();
      const neighbour = await t.addPartner();
      const id = `shared-${backend.name}-id`;
      assert.equal((await send(base, 'POST', LOGIN, { 'x-request-id': id }, victim)).status, 200);
      assert.equal((await send(base, 'POST', LOGIN, { 'x-request-id': id }, neighbour)).status, 200);
      const found = (await searchAudit({ adminBase }, `requestId=${id}`)).json.entries;
      assert.deepEqual(found.map((entry) => entry.partner).sort(), [victim.login, neighbour.login].sort());
      // The victim's own calls stay apart from the neighbour's.
      const victims = (await searchAudit({ adminBase }, `partner=${victim.login}&requestId=${id}`)).json.entries;
      assert.deepEqual(victims.map((entry) => entry.partner), [victim.login]);
    });

    it('when the audit search is given a malformed requestId, then it answers 422 naming the field', async () => {
      for (const bad of ['a'.repeat(65), 'has%20space', 'x%22y', '']) {
        const found = await searchAudit({ adminBase }, `requestId=${bad}`);
        assert.equal(found.status, 422, bad);
        assert.deepEqual(found.json.errors?.map((error) => error.field), ['requestId'], bad);
      }
    });
  });
}

describe('request ids on the HTTPS listener', () => {
  const pki = createTestPki();
  let t: TestGateway;
  let tls: TlsListener;
  let serverCa = '';
  before(async () => {
    const ca = pki.issue({ subject: '/CN=Server CA', extensions: pki.caExtensions });
    const server = pki.issue({ subject: '/CN=127.0.0.1', issuer: ca, extensions: pki.serverExtensions() });
    serverCa = ca.cert;
    t = await startTestGateway(testBackends()[0]!);
    const files = loadTlsFiles({ certFile: pki.write('server.pem', server.cert), keyFile: pki.write('server.key', server.key), clientCaFile: undefined });
    tls = await startTlsListener({ app: t.app, files, host: '127.0.0.1', port: 0, logger: t.app.log as never, timeouts: REQUEST_TIMEOUTS, onClientError: clientErrorHandler });
  });
  after(async () => {
    await tls?.close();
    await t?.close();
    pki.remove();
  });

  it('when a request reaches the TLS listener, then its answer carries the kept, or a generated, X-Request-Id', async () => {
    const base = `https://127.0.0.1:${(tls.server.address() as AddressInfo).port}`;
    assert.equal((await send(base, 'GET', '/healthz', { 'x-request-id': 'over-tls.1' }, undefined, serverCa)).requestId, 'over-tls.1');
    assert.match(String((await send(base, 'GET', '/healthz', { 'x-request-id': 'not kept!' }, undefined, serverCa)).requestId), UUID);
    const refused = await send(base, 'POST', LOGIN, { 'x-request-id': 'tls-login-1' }, { login: 'nobody-at-all', password: 'not the password' }, serverCa);
    assert.equal(refused.status, 401);
    assert.equal(refused.requestId, 'tls-login-1');
    assert.deepEqual(JSON.parse(refused.body), { description_status: texts.unauthorized });
  });
});
