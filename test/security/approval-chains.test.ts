/**
 * Maker-checker against chains of credentials (issue 33, finding 1): a security operator who creates a token for a
 * colleague, and with it more tokens, stays behind every one of them. An approval is refused whenever an operator
 * behind the approving credential is behind the proposal's: chains of one, two and three tokens, a proposal made
 * through a chain, and a token created from a console session. The audit names everyone behind a chained token.
 */
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Operator } from '../../src/operators/operator-repository.js';
import { testBackends } from '../support/test-databases.js';
import { startTestGateway, TEST_ADMIN_TOKEN, type TestGateway, type TestOperator } from '../support/test-gateway.js';

const BOOTSTRAP = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };
const COOKIE = '__Host-partner-gateway-session';
const CONSOLE = { host: '127.0.0.1:8081', origin: 'http://127.0.0.1:8081' };

for (const backend of testBackends()) {
  describe(`approvals against credential chains on ${backend.name}`, () => {
    let t: TestGateway;
    let alice: TestOperator;
    let bob: TestOperator;
    let carol: TestOperator;
    let dave: TestOperator;
    before(async () => {
      t = await startTestGateway(backend);
      alice = await t.addOperator('security', { name: 'alice' });
      bob = await t.addOperator('security', { name: 'bob' });
      carol = await t.addOperator('security', { name: 'carol' });
      dave = await t.addOperator('security', { name: 'dave' });
      const everything = (await call(BOOTSTRAP, 'GET', '/admin/v1/approvals/settings')).json().actions.map((action: { action: string }) => action.action);
      assert.equal((await call(BOOTSTRAP, 'PUT', '/admin/v1/approvals/settings', { required: everything })).statusCode, 200);
    });
    after(() => t.close());

    const call = (headers: Record<string, string>, method: string, url: string, payload?: object) =>
      t.admin.inject({ method: method as 'GET', url, headers, ...(payload ? { payload } : {}) });
    const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
    /** A token for `operatorId`, created with `headers`' credential. */
    async function tokenFor(headers: Record<string, string>, operatorId: string, label: string): Promise<string> {
      const created = await call(headers, 'POST', `/admin/v1/operators/${operatorId}/tokens`, { label });
      assert.equal(created.statusCode, 201, created.body);
      return created.json().token;
    }
    /** A proposal to create a security operator, made with `headers`' credential. */
    async function propose(headers: Record<string, string>, name: string): Promise<string> {
      const proposed = await call(headers, 'POST', '/admin/v1/operators', { name, role: 'security' });
      assert.equal(proposed.statusCode, 202, proposed.body);
      return proposed.json().id;
    }
    const approve = (headers: Record<string, string>, id: string) => call(headers, 'POST', `/admin/v1/approvals/${id}/approve`);
    function assertRefusedAsChain(answer: Awaited<ReturnType<typeof approve>>, what: string) {
      assert.equal(answer.statusCode, 403, `${what}: ${answer.body}`);
      assert.match(answer.json().description_status, /same operator/, what);
    }

    it('when a proposer approves with a token created for a colleague, directly or through one or two more tokens, then every approval is refused and another operator approves', async () => {
      const proposal = await propose(alice.headers, 'mallory-1');
      const one = await tokenFor(alice.headers, bob.id, 'made by alice for bob');
      const two = await tokenFor(bearer(one), bob.id, 'made with that token, recorded as bob\'s');
      const three = await tokenFor(bearer(two), carol.id, 'and one more, for carol');
      assertRefusedAsChain(await approve(bearer(one), proposal), 'a chain of one');
      assertRefusedAsChain(await approve(bearer(two), proposal), 'a chain of two');
      assertRefusedAsChain(await approve(bearer(three), proposal), 'a chain of three');

      const tokens = (await call(bob.headers, 'GET', `/admin/v1/operators/${bob.id}/tokens`)).json().tokens;
      const recorded = tokens.find((token: { label: string }) => token.label.startsWith('made with that token'));
      assert.deepEqual({ createdBy: recorded.createdBy, issuedThrough: recorded.issuedThrough }, { createdBy: bob.id, issuedThrough: [alice.id] });
      const carols = (await call(carol.headers, 'GET', `/admin/v1/operators/${carol.id}/tokens`)).json().tokens;
      assert.deepEqual(carols.find((token: { label: string }) => token.label === 'and one more, for carol').issuedThrough, [alice.id, bob.id]);

      const approved = await approve(dave.headers, proposal);
      assert.equal(approved.statusCode, 200, approved.body);
      assert.equal(approved.json().status, 'approved');
    });

    it('when a proposal is made through a chained token, then neither the operator at its root nor the one it names may approve it', async () => {
      const one = await tokenFor(alice.headers, bob.id, 'alice acting as bob');
      const two = await tokenFor(bearer(one), bob.id, 'still alice');
      const proposal = await propose(bearer(two), 'mallory-2');
      const shown = (await call(dave.headers, 'GET', `/admin/v1/approvals/${proposal}`)).json();
      assert.deepEqual(shown.proposedBy, { id: bob.id, name: 'bob', credential: 'token', issuedThrough: [alice.id] });
      assertRefusedAsChain(await approve(alice.headers, proposal), 'the root, with a token of her own');
      assert.equal((await approve(bob.headers, proposal)).statusCode, 403, 'the operator it names');
      const approved = await approve(carol.headers, proposal);
      assert.equal(approved.statusCode, 200, approved.body);

      await t.gateway.admin.audit.flush();
      const entry = (await call(dave.headers, 'GET', '/admin/v1/audit?action=operator.create&outcome=success&limit=20')).json().entries
        .find((found: { details: { proposal?: { id: string } } }) => found.details.proposal?.id === proposal);
      assert.deepEqual(entry.operator, { id: bob.id, name: 'bob', credential: 'token', issuedThrough: [alice.id] }, 'the audit names who is behind the token');
      assert.deepEqual(entry.approver, { id: carol.id, name: 'carol', credential: 'token' });
      const from = new Date(Date.parse(entry.at) - 1000).toISOString();
      const to = new Date(Date.parse(entry.at) + 1000).toISOString();
      const csv = (await call(dave.headers, 'GET', `/admin/v1/audit/export?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}&format=csv`)).body.split('\r\n');
      const header = csv[0]!.split(',');
      const row = csv.find((line) => line.startsWith(`${entry.id},`))!.split(',');
      assert.equal(row[header.indexOf('operatorIssuedThrough')], alice.id, 'the CSV export names her too');
    });

    it('when a token is created from a console session, then it is counted as the signed-in operator\'s, and it cannot approve their proposal', async () => {
      const { sessionId } = await t.gateway.admin.sessions.start({ id: alice.id } as Operator);
      const cookie = `${COOKIE}=${sessionId}`;
      const { csrfToken } = (await call({ ...CONSOLE, cookie }, 'GET', '/admin/v1/session')).json();
      const session = { ...CONSOLE, cookie, 'x-csrf-token': csrfToken };
      const proposal = await propose(session, 'mallory-3');
      const fromSession = await tokenFor(session, bob.id, 'from alice\'s console');
      const chained = await tokenFor(bearer(fromSession), bob.id, 'and through it');
      assertRefusedAsChain(await approve(bearer(fromSession), proposal), 'a token the session created');
      assertRefusedAsChain(await approve(bearer(chained), proposal), 'a token created through it');
      assert.equal((await approve(session, proposal)).statusCode, 403, 'the session itself');
      assert.equal((await approve(bob.headers, proposal)).statusCode, 200, 'bob\'s own token: another person');
    });

    it('when an operator creates a token for itself with its own credential, or the bootstrap credential creates one, then it has no chain and approves others\' proposals', async () => {
      const own = await tokenFor(carol.headers, carol.id, 'carol for carol');
      const bootstrapMade = await tokenFor(BOOTSTRAP, dave.id, 'handed to dave');
      const proposal = await propose(alice.headers, 'mallory-4');
      const listed = (await call(carol.headers, 'GET', `/admin/v1/operators/${carol.id}/tokens`)).json().tokens;
      assert.deepEqual(listed.find((token: { label: string }) => token.label === 'carol for carol').issuedThrough, []);
      assert.equal((await approve(bearer(own), proposal)).statusCode, 200);
      const second = await propose(alice.headers, 'mallory-5');
      assert.equal((await approve(bearer(bootstrapMade), second)).statusCode, 200);
    });
  });
}
