/**
 * Operators' personal tokens: created and shown once, stored only as a hash, used as `Authorization: Bearer`,
 * expiring, revoked on one instance and refused by another once the change feed tells it, and failed credentials throttled per
 * address with one answer for every cause.
 */
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { sql } from 'kysely';
import { testBackends } from '../support/test-databases.js';
import { startSiblingGateway, startTestGateway, TEST_ADMIN_TOKEN, type TestGateway } from '../support/test-gateway.js';
import { BOOTSTRAP_ISSUER } from '../../src/operators/operator-admin.js';
import { waitFor } from '../support/wait-for.js';

const DAY = 86_400_000;
const BOOTSTRAP = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };

for (const backend of testBackends()) {
  describe(`operators' personal tokens on ${backend.name}`, () => {
    let clock = Date.now();
    let a: TestGateway;
    let b: TestGateway;
    before(async () => {
      a = await startTestGateway(backend, { now: () => clock, env: { THROTTLE_MAX_FAILURES: '3' } });
      b = await startSiblingGateway(a, { now: () => clock, env: { THROTTLE_MAX_FAILURES: '3' } });
    });
    after(async () => {
      await b?.close();
      await a?.close();
    });
    // Each test calls from an address of its own: THROTTLE_MAX_FAILURES is 3 here, and the refusals of one must not lock another out.
    let testAddress = '127.0.0.1';
    let tests = 0;
    beforeEach(() => {
      testAddress = `127.0.0.${10 + ++tests}`;
    });
    const admin = (t: TestGateway, method: string, url: string, headers: Record<string, string>, payload?: object, remoteAddress = testAddress) =>
      t.admin.inject({ method: method as 'GET', url, headers, remoteAddress, ...(payload ? { payload } : {}) });

    it('when an operator and a token are created over the API, then the token is shown once, stored as a hash, and acts as the operator', async () => {
      const created = await admin(a, 'POST', '/admin/v1/operators', BOOTSTRAP, { name: 'alice-tokens', role: 'operator' });
      assert.equal(created.statusCode, 201);
      const operator = created.json();
      assert.deepEqual({ name: operator.name, role: operator.role, status: operator.status, source: operator.source, lastUsedAt: operator.lastUsedAt }, { name: 'alice-tokens', role: 'operator', status: 'active', source: 'local', lastUsedAt: null });
      assert.equal((await admin(a, 'POST', '/admin/v1/operators', BOOTSTRAP, { name: 'ALICE-tokens', role: 'viewer' })).statusCode, 409, 'names are unique, whatever the case');
      const issued = await admin(a, 'POST', `/admin/v1/operators/${operator.id}/tokens`, BOOTSTRAP, { label: 'laptop CLI' });
      assert.equal(issued.statusCode, 201);
      const { token, expiresAt, createdBy } = issued.json();
      assert.match(token, /^pgw_[A-Za-z0-9_-]{43}$/);
      assert.equal(createdBy, 'bootstrap');
      assert.equal(Date.parse(expiresAt) - clock, 90 * DAY, '90 days by default');
      const stored = await sql<Record<string, unknown>>`select * from operator_tokens where operator_id = ${operator.id}`.execute(a.handle.db);
      assert.equal(stored.rows.length, 1);
      assert.ok(!JSON.stringify(stored.rows).includes(token.slice(4)), 'the token itself is not stored');
      const listed = await admin(a, 'GET', `/admin/v1/operators/${operator.id}/tokens`, BOOTSTRAP);
      assert.ok(!listed.body.includes(token.slice(4)), 'nor listed');

      const me = await admin(a, 'GET', '/admin/v1/me', { authorization: `Bearer ${token}` });
      assert.equal(me.statusCode, 200);
      assert.deepEqual(me.json(), { id: operator.id, name: 'alice-tokens', role: 'operator', credential: 'token', permissions: ['read', 'partners.write', 'banks.write', 'approvals.decide'] });
      const partner = await admin(a, 'POST', '/admin/v1/partners', { authorization: `Bearer ${token}` }, { login: 'made-by-alice', password: 'a long partner password', ipAllowlist: [], rewardTypes: ['sbp'] });
      assert.equal(partner.statusCode, 201);
      await a.gateway.admin.audit.flush();
      const entry = (await admin(a, 'GET', `/admin/v1/audit?operator=${operator.id}&action=partner.create`, BOOTSTRAP)).json().entries[0];
      assert.deepEqual(entry.operator, { id: operator.id, name: 'alice-tokens', credential: 'token' });

      await a.gateway.runtime.flushOperatorUsage();
      const used = (await admin(a, 'GET', `/admin/v1/operators/${operator.id}/tokens`, BOOTSTRAP)).json().tokens[0];
      assert.equal(used.lastUsedAt, new Date(clock).toISOString(), 'the last use is written in a batch');
      assert.equal((await admin(a, 'GET', `/admin/v1/operators/${operator.id}`, BOOTSTRAP)).json().lastUsedAt, new Date(clock).toISOString());
    });

    it('when a token is asked for longer than a year, then it is refused; when its time is up, then it is refused like any other', async () => {
      const operator = await a.gateway.admin.operators.create({ name: 'short-lived', role: 'viewer' }, 'bootstrap');
      assert.equal((await admin(a, 'POST', `/admin/v1/operators/${operator.id}/tokens`, BOOTSTRAP, { label: 'too long', expiresInDays: 366 })).statusCode, 422);
      const { token } = (await admin(a, 'POST', `/admin/v1/operators/${operator.id}/tokens`, BOOTSTRAP, { label: 'a day', expiresInDays: 1 })).json();
      const headers = { authorization: `Bearer ${token}` };
      assert.equal((await admin(a, 'GET', '/admin/v1/me', headers)).statusCode, 200);
      clock += DAY - 1;
      assert.equal((await admin(a, 'GET', '/admin/v1/me', headers)).statusCode, 200);
      clock += 1;
      const expired = await admin(a, 'GET', '/admin/v1/me', headers);
      assert.equal(expired.statusCode, 401);
      assert.equal((await admin(b, 'GET', '/admin/v1/me', headers)).statusCode, 401);
    });

    it('when a token is revoked on one instance, then the other refuses it once the change feed tells it', async () => {
      const operator = await a.gateway.admin.operators.create({ name: 'revoked-soon', role: 'security' }, 'bootstrap');
      const issued = (await admin(a, 'POST', `/admin/v1/operators/${operator.id}/tokens`, BOOTSTRAP, { label: 'to revoke' })).json();
      const headers = { authorization: `Bearer ${issued.token}` };
      // Both instances have checked it (and keep it in memory).
      assert.equal((await admin(a, 'GET', '/admin/v1/me', headers)).statusCode, 200);
      assert.equal((await admin(b, 'GET', '/admin/v1/me', headers)).statusCode, 200);
      const revoked = await admin(a, 'DELETE', `/admin/v1/operators/${operator.id}/tokens/${issued.id}`, BOOTSTRAP);
      assert.equal(revoked.statusCode, 200);
      assert.ok(revoked.json().revokedAt);
      assert.equal((await admin(a, 'GET', '/admin/v1/me', headers)).statusCode, 401, 'at once where it was revoked');
      await waitFor(async () => (await admin(b, 'GET', '/admin/v1/me', headers)).statusCode === 401, { message: 'the other instance to refuse it' });
      assert.equal((await admin(a, 'DELETE', `/admin/v1/operators/${operator.id}/tokens/${issued.id}`, BOOTSTRAP)).json().revokedAt, revoked.json().revokedAt, 'revoking again keeps the first time');
    });

    it('when an operator is disabled on one instance, then all its tokens are refused on the other once the change feed tells it', async () => {
      const operator = await a.gateway.admin.operators.create({ name: 'disabled-soon', role: 'operator' }, 'bootstrap');
      const { token } = await a.gateway.admin.operators.createToken(operator.id, { label: 'x' }, BOOTSTRAP_ISSUER);
      const headers = { authorization: `Bearer ${token}` };
      assert.equal((await admin(b, 'GET', '/admin/v1/me', headers)).statusCode, 200);
      assert.equal((await admin(a, 'PATCH', `/admin/v1/operators/${operator.id}`, BOOTSTRAP, { status: 'disabled' })).statusCode, 200);
      await waitFor(async () => (await admin(b, 'GET', '/admin/v1/me', headers)).statusCode === 401, { message: 'the other instance to refuse it' });
      assert.equal((await admin(a, 'POST', `/admin/v1/operators/${operator.id}/tokens`, BOOTSTRAP, { label: 'y' })).statusCode, 409, 'a disabled operator gets no token');
    });

    it('when wrong tokens come from one address, then it is locked out with one answer for every cause (ADMIN_TOKEN too), and an operator token known good still works from there', async () => {
      const address = '198.51.100.77';
      const operator = await a.gateway.admin.operators.create({ name: 'neighbour', role: 'viewer' }, 'bootstrap');
      const good = (await a.gateway.admin.operators.createToken(operator.id, { label: 'good' }, BOOTSTRAP_ISSUER)).token;
      const revoked = await a.gateway.admin.operators.createToken(operator.id, { label: 'revoked' }, BOOTSTRAP_ISSUER);
      await a.gateway.admin.operators.revokeToken(operator.id, revoked.id);
      const short = await a.gateway.admin.operators.createToken(operator.id, { label: 'expired', expiresInDays: 1 }, BOOTSTRAP_ISSUER);
      const disabledOperator = await a.gateway.admin.operators.create({ name: 'disabled-neighbour', role: 'viewer' }, 'bootstrap');
      const ofDisabled = (await a.gateway.admin.operators.createToken(disabledOperator.id, { label: 'x' }, BOOTSTRAP_ISSUER)).token;
      await a.gateway.admin.operators.update(disabledOperator.id, { status: 'disabled' });
      clock += 2 * DAY;
      assert.equal((await admin(a, 'GET', '/admin/v1/me', { authorization: `Bearer ${good}` }, undefined, address)).statusCode, 200, 'known good before the guesses');

      const answers = [];
      for (const token of [`pgw_${'x'.repeat(43)}`, revoked.token, short.token]) answers.push(await admin(a, 'GET', '/admin/v1/me', { authorization: `Bearer ${token}` }, undefined, address));
      for (const answer of answers) {
        assert.equal(answer.statusCode, 401);
        assert.deepEqual({ body: answer.json(), challenge: answer.headers['www-authenticate'] }, { body: answers[0]!.json(), challenge: answers[0]!.headers['www-authenticate'] });
      }
      const locked = await admin(a, 'GET', '/admin/v1/me', { authorization: `Bearer ${ofDisabled}` }, undefined, address);
      assert.equal(locked.statusCode, 429, 'the third failure locked the address');
      assert.ok(Number(locked.headers['retry-after']) > 0);
      assert.equal((await admin(b, 'GET', '/admin/v1/me', { authorization: 'Bearer not-a-token-at-all-not-a-token' }, undefined, address)).statusCode, 429, 'on every instance');
      // Known good again, from another address: the echoes of the set-up's changes may reach this instance's change
      // feed after the first check and, as a change of its operator (a token of it revoked) does, make it forget what it knew.
      assert.equal((await admin(a, 'GET', '/admin/v1/me', { authorization: `Bearer ${good}` }, undefined, '198.51.100.79')).statusCode, 200);
      assert.equal((await admin(a, 'GET', '/admin/v1/me', { authorization: `Bearer ${good}` }, undefined, address)).statusCode, 200, 'a token this instance knows good still works');
      // ADMIN_TOKEN is a configured secret, not an operator's token this instance has seen: checked after the lockout (issue 33, finding 8).
      assert.equal((await admin(a, 'GET', '/admin/v1/me', BOOTSTRAP, undefined, address)).statusCode, 429, 'but ADMIN_TOKEN is refused while the address is locked out');
      assert.equal((await admin(a, 'GET', '/admin/v1/me', { authorization: `Bearer ${ofDisabled}` }, undefined, '198.51.100.78')).statusCode, 401, 'another address is not locked');
    });

    it('when another operator changes on either instance while an address is locked out, then a token known good here still works from there; its own operator\'s change makes it read again', async () => {
      const address = '198.51.100.88';
      const steady = await a.gateway.admin.operators.create({ name: 'steady', role: 'viewer' }, 'bootstrap');
      const good = (await a.gateway.admin.operators.createToken(steady.id, { label: 'good' }, BOOTSTRAP_ISSUER)).token;
      const other = await a.gateway.admin.operators.create({ name: 'changing', role: 'viewer' }, 'bootstrap');
      const otherToken = await a.gateway.admin.operators.createToken(other.id, { label: 'x' }, BOOTSTRAP_ISSUER);
      const me = (token: string, from: string, on = a) => admin(on, 'GET', '/admin/v1/me', { authorization: `Bearer ${token}` }, undefined, from);
      for (let guess = 0; guess < 3; guess++) await me(`pgw_${'y'.repeat(43)}`, address);
      assert.equal((await me(`pgw_${'y'.repeat(43)}`, address)).statusCode, 429, 'the address is locked out');
      // Both tokens known good on this instance (from addresses of their own).
      assert.equal((await me(good, '198.51.100.89')).statusCode, 200);
      assert.equal((await me(otherToken.token, '198.51.100.90')).statusCode, 200);
      // The other operator's token is revoked on the other instance: once this one refuses it, the change has arrived.
      await b.gateway.admin.operators.revokeToken(other.id, otherToken.id);
      await waitFor(async () => (await me(otherToken.token, '198.51.100.90')).statusCode === 401, { message: "this instance to hear of the other operator's change" });
      await a.gateway.admin.operators.update(other.id, { name: 'changed-here' });
      assert.equal((await me(good, address)).statusCode, 200, 'still known good: the changes were not its operator\'s');
      // Its own operator changed on the other instance: read again, which a locked-out address may not make it do.
      await b.gateway.admin.operators.update(steady.id, { name: 'steady-renamed' });
      await waitFor(async () => (await me(good, address)).statusCode === 429, { message: 'this instance to forget the renamed operator\'s token' });
      assert.equal((await me(good, '198.51.100.89')).json().name, 'steady-renamed');
    });
  });
}
