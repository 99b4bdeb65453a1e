/**
 * The console's single sign-on sessions, below the browser: the cookie authenticates, a change needs the session's
 * CSRF token and the console's own origin, the idle and absolute timeouts end it (an injected clock), signing out
 * ends it on every instance, and disabling the operator refuses it. (The sign-in itself, through a real OpenID
 * provider, is test/console-e2e/console-sso.test.ts.)
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Operator } from '../../src/operators/operator-repository.js';
import { testBackends } from '../support/test-databases.js';
import { startSiblingGateway, startTestGateway, type TestGateway } from '../support/test-gateway.js';
import { waitFor } from '../support/wait-for.js';

const MINUTE = 60_000;
const COOKIE = '__Host-partner-gateway-session';

for (const backend of testBackends()) {
  describe(`console sessions on ${backend.name}`, () => {
    let clock = Date.now();
    let a: TestGateway;
    let b: TestGateway;
    const env = { SESSION_IDLE_TIMEOUT: '900', SESSION_MAX_AGE: '3600' };
    before(async () => {
      a = await startTestGateway(backend, { now: () => clock, env });
      b = await startSiblingGateway(a, { now: () => clock, env });
    });
    after(async () => {
      await b?.close();
      await a?.close();
    });

    /** A session as single sign-on starts one, for a new operator. */
    async function signedIn(name: string) {
      const operator = await a.gateway.admin.operators.create({ name, role: 'operator' }, 'bootstrap');
      const { sessionId } = await a.gateway.admin.sessions.start({ id: operator.id } as Operator);
      return { operator, cookie: `${COOKIE}=${sessionId}` };
    }
    const call = (t: TestGateway, method: string, url: string, headers: Record<string, string>, payload?: object) =>
      t.admin.inject({ method: method as 'GET', url, headers: { host: '127.0.0.1:8081', ...headers }, ...(payload ? { payload } : {}) });

    it('when the cookie comes, then it acts as its operator, and a change needs the CSRF token and the console\'s origin', async () => {
      const { operator, cookie } = await signedIn('session-sue');
      const session = await call(a, 'GET', '/admin/v1/session', { cookie });
      assert.equal(session.statusCode, 200);
      const { identity, csrfToken, expiresAt } = session.json();
      assert.deepEqual({ id: identity.id, credential: identity.credential, role: identity.role }, { id: operator.id, credential: 'sso', role: 'operator' });
      assert.equal(Date.parse(expiresAt) - clock, 60 * MINUTE);
      const bank = { bic: '049999961', name: 'Session bank' };
      assert.equal((await call(a, 'POST', '/admin/v1/banks', { cookie }, bank)).statusCode, 403, 'no CSRF token');
      assert.equal((await call(a, 'POST', '/admin/v1/banks', { cookie, 'x-csrf-token': 'x'.repeat(43) }, bank)).statusCode, 403, 'a wrong one');
      assert.equal((await call(a, 'POST', '/admin/v1/banks', { cookie, 'x-csrf-token': csrfToken, origin: 'https://evil.example' }, bank)).statusCode, 403, 'another origin');
      assert.equal((await call(a, 'POST', '/admin/v1/banks', { cookie, 'x-csrf-token': csrfToken, origin: 'http://127.0.0.1:8081' }, bank)).statusCode, 201);
      assert.equal((await call(b, 'GET', '/admin/v1/me', { cookie })).json().name, 'session-sue', 'every instance knows the session');
      assert.equal((await call(a, 'GET', '/admin/v1/me', { cookie: `${COOKIE}=${'A'.repeat(43)}` })).statusCode, 401);
    });

    it('when the session is idle for SESSION_IDLE_TIMEOUT, then it ends, and its cookie is cleared', async () => {
      const { cookie } = await signedIn('session-idle');
      clock += 14 * MINUTE;
      assert.equal((await call(a, 'GET', '/admin/v1/me', { cookie })).statusCode, 200, 'a request within the idle time keeps it');
      // What the usage recorder writes within 15 s of real time (this clock jumps minutes at once): then every
      // instance counts the idle time from that request.
      await a.gateway.runtime.flushOperatorUsage();
      clock += 14 * MINUTE;
      assert.equal((await call(b, 'GET', '/admin/v1/me', { cookie })).statusCode, 200);
      clock += 15 * MINUTE;
      const ended = await call(a, 'GET', '/admin/v1/me', { cookie });
      assert.equal(ended.statusCode, 401);
      assert.match(String(ended.headers['set-cookie']), new RegExp(`^${COOKIE}=; .*Max-Age=0`));
    });

    it('when a session is used without pause, then it still ends at SESSION_MAX_AGE', async () => {
      const { cookie } = await signedIn('session-busy');
      for (let elapsed = 0; elapsed < 50; elapsed += 10) {
        clock += 10 * MINUTE;
        assert.equal((await call(a, 'GET', '/admin/v1/me', { cookie })).statusCode, 200, `${elapsed + 10} minutes`);
      }
      clock += 10 * MINUTE;
      assert.equal((await call(a, 'GET', '/admin/v1/me', { cookie })).statusCode, 401);
    });

    it('when the operator signs out on one instance, then the other refuses the cookie once the change feed tells it', async () => {
      const { cookie } = await signedIn('session-out');
      assert.equal((await call(b, 'GET', '/admin/v1/me', { cookie })).statusCode, 200);
      const { csrfToken } = (await call(a, 'GET', '/admin/v1/session', { cookie })).json();
      assert.equal((await call(a, 'DELETE', '/admin/v1/session', { cookie })).statusCode, 403, 'signing out is a change: CSRF token needed');
      const out = await call(a, 'DELETE', '/admin/v1/session', { cookie, 'x-csrf-token': csrfToken });
      assert.equal(out.statusCode, 204);
      assert.match(String(out.headers['set-cookie']), /Max-Age=0/);
      assert.equal((await call(a, 'GET', '/admin/v1/me', { cookie })).statusCode, 401);
      await waitFor(async () => (await call(b, 'GET', '/admin/v1/me', { cookie })).statusCode === 401, { message: 'the other instance to refuse it' });
    });

    it('when its operator is disabled, then the session is refused', async () => {
      const { operator, cookie } = await signedIn('session-disabled');
      assert.equal((await call(b, 'GET', '/admin/v1/me', { cookie })).statusCode, 200);
      await a.gateway.admin.operators.update(operator.id, { status: 'disabled' });
      await waitFor(async () => (await call(b, 'GET', '/admin/v1/me', { cookie })).statusCode === 401, { message: 'the other instance to refuse it' });
    });
  });
}
