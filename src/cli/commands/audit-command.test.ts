import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { cliHarness } from '../../../test/support/cli-harness.js';
import { testBackends } from '../../../test/support/test-databases.js';
import { startTestGateway, TEST_ADMIN_TOKEN, type TestGateway } from '../../../test/support/test-gateway.js';
import { waitFor } from '../../../test/support/wait-for.js';
import { runCli } from '../run-cli.js';
import { createAdminClient } from '../admin-client.js';
import { AUDIT_USAGE, auditCommand } from './audit-command.js';

describe('partner-gateway audit', () => {
  let t: TestGateway;
  let env: Record<string, string>;
  before(async () => {
    t = await startTestGateway(testBackends()[0]!);
    env = { ADMIN_URL: await t.admin.listen({ host: '127.0.0.1', port: 0 }), ADMIN_TOKEN: TEST_ADMIN_TOKEN };
  });
  after(() => t.close());

  it('when run without --follow, then it prints the latest --limit entries newest first, as its help says', async () => {
    const partner = await t.addPartner();
    for (let i = 0; i < 5; i++) {
      const login = await t.app.inject({ method: 'POST', url: '/api/v1/login/', payload: { login: partner.login, password: i === 4 ? partner.password : 'wrong password' } });
      assert.equal(login.statusCode, i === 4 ? 200 : 401);
    }
    await t.gateway.admin.audit.flush();
    const harness = cliHarness(env);
    assert.equal(await runCli(['audit', '--partner', partner.login, '--action', 'login', '--limit', '3', '--json'], harness.io), 0, harness.stderr());
    const printed = harness.stdout().trim().split('\n').map((line) => JSON.parse(line) as { id: string; outcome: string });
    assert.deepEqual(printed.map((entry) => entry.outcome), ['success', 'failure', 'failure'], 'the last three of five, newest first');
    const ids = printed.map((entry) => BigInt(entry.id));
    assert.ok(ids[0]! > ids[1]! && ids[1]! > ids[2]!, 'newest first');
    assert.match(AUDIT_USAGE, /newest first/);
  });

  it('when a row is wider than the terminal, then its time and address are printed whole, and --wide prints every cell whole', async () => {
    const partner = await t.addPartner({ login: `a-partner-whose-login-is-far-too-long-for-one-table-row-${process.pid}` });
    const address = '2001:db8:85a3:1234:5678:8a2e:370:7334';
    await t.app.inject({ method: 'POST', url: '/api/v1/login/', remoteAddress: address, payload: { login: partner.login, password: 'wrong password' } });
    await t.gateway.admin.audit.flush();
    const harness = cliHarness(env);
    assert.equal(await runCli(['audit', '--partner', partner.login, '--limit', '1'], harness.io), 0, harness.stderr());
    const [, row] = harness.stdout().trim().split('\n');
    assert.match(row!, /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z/, 'the whole time');
    assert.ok(row!.includes(address), `the whole address: ${row}`);
    assert.ok(!row!.includes(partner.login) && row!.includes('…'), 'the partner is what gives way');
    const wide = cliHarness(env);
    assert.equal(await runCli(['audit', '--partner', partner.login, '--limit', '1', '--wide'], wide.io), 0, wide.stderr());
    assert.ok(wide.stdout().includes(partner.login), '--wide cuts nothing');
  });

  it('when given --request-id, then it prints the entry of the request whose answer carried that X-Request-Id', async () => {
    const partner = await t.addPartner();
    const id = 'cli-ticket-4711';
    const login = await t.app.inject({ method: 'POST', url: '/api/v1/login/', headers: { 'x-request-id': id }, payload: { login: partner.login, password: 'wrong password' } });
    assert.equal(login.headers['x-request-id'], id);
    await t.app.inject({ method: 'POST', url: '/api/v1/login/', payload: { login: partner.login, password: 'wrong password' } });
    const harness = cliHarness(env);
    assert.equal(await runCli(['audit', '--request-id', id, '--json'], harness.io), 0, harness.stderr());
    const printed = harness.stdout().trim().split('\n').map((line) => JSON.parse(line) as { requestId: string; partner: string; reason: string });
    assert.deepEqual(printed.map(({ requestId, partner: login, reason }) => ({ requestId, login, reason })), [{ requestId: id, login: partner.login, reason: 'wrong_password' }]);
    assert.match(AUDIT_USAGE, /--request-id <id>/);
  });

  it('when following, then the entries so far read oldest first, as a log that grows below them', async () => {
    const partner = await t.addPartner();
    for (let i = 0; i < 3; i++) await t.app.inject({ method: 'POST', url: '/api/v1/login/', payload: { login: partner.login, password: i === 2 ? partner.password : 'wrong password' } });
    await t.gateway.admin.audit.flush();
    const controller = new AbortController();
    const harness = cliHarness(env);
    const following = auditCommand(['--partner', partner.login, '--action', 'login', '--follow', '--json'], harness.io, createAdminClient(harness.io), { pollMs: 20, signal: controller.signal });
    await waitFor(() => harness.stdout().trim().split('\n').length >= 3, { message: () => `three entries in ${harness.stdout()}` });
    controller.abort();
    await following;
    const printed = harness.stdout().trim().split('\n').map((line) => JSON.parse(line) as { id: string; outcome: string });
    assert.deepEqual(printed.map((entry) => entry.outcome), ['failure', 'failure', 'success']);
  });
});
