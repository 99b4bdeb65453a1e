import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { cliHarness } from '../../../test/support/cli-harness.js';
import { testBackends } from '../../../test/support/test-databases.js';
import { startTestGateway, TEST_ADMIN_TOKEN, type TestGateway } from '../../../test/support/test-gateway.js';
import { createAdminClient } from '../admin-client.js';
import { runCli } from '../run-cli.js';
import { PROPOSED_EXIT_CODE } from '../admin-client.js';

describe('partner-gateway call against a running admin API', () => {
  let t: TestGateway;
  let env: Record<string, string>;
  before(async () => {
    t = await startTestGateway(testBackends()[0]!);
    env = { ADMIN_URL: await t.admin.listen({ host: '127.0.0.1', port: 0 }), ADMIN_TOKEN: TEST_ADMIN_TOKEN };
  });
  after(() => t.close());

  const call = async (...args: string[]) => {
    const harness = cliHarness(env);
    const code = await runCli(['call', ...args], harness.io);
    return { code, stdout: harness.stdout(), stderr: harness.stderr() };
  };
  const admin = () => createAdminClient(cliHarness(env).io);

  it('when an operation is called by its client name, then it prints the API\'s answer as JSON', async () => {
    const { code, stdout } = await call('keys.list');
    assert.equal(code, 0);
    assert.deepEqual(JSON.parse(stdout), await admin().keys.list());
  });

  it('when a call changes data with no terminal and no --yes, then nothing is sent; with --yes it is made and audited', async () => {
    const partner = await t.addPartner();
    const refused = await call('partners.update', partner.login, '{"status":"blocked"}');
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /changes data and there is no terminal/);
    assert.equal((await admin().partners.get(partner.login)).status, 'active');
    const made = await call('partners.update', partner.login, '{"status":"blocked"}', '--yes');
    assert.equal(made.code, 0);
    assert.equal(JSON.parse(made.stdout).status, 'blocked');
    const { entries } = await admin().audit.query({ action: 'partner.update', partner: partner.login });
    assert.equal(entries.length, 1);
  });

  it('when the action needs a second operator, then the call is held as a proposal like any other path (exit 4)', async () => {
    assert.equal((await call('approvals.setSettings', '["key.revoke"]', '--yes')).code, 0);
    const { keys } = await admin().keys.list();
    const held = await call('keys.revoke', '--yes', '--', keys[0]!.kid);
    assert.equal(held.code, PROPOSED_EXIT_CODE, held.stderr);
    assert.ok((await admin().keys.list()).keys.some((key) => key.kid === keys[0]!.kid), 'the key is still in service');
    const { proposals } = await admin().approvals.list({ status: 'pending' });
    assert.deepEqual(proposals.map((proposal) => proposal.action), ['key.revoke']);
  });

  it('when the operation is unknown, takes a file, or lacks its arguments, then it says so (exit 2) and sends nothing', async () => {
    for (const [args, message] of [
      [['partners.nothing'], /No admin operation partners\.nothing/],
      [['banks.import', 'x'], /banks\.import sends a file: use partner-gateway bank import/],
      [['backup'], /backup answers a file: use partner-gateway backup/],
      [['partners.get'], /partners\.get takes 1 argument, given 0/],
      [['partners.create', '{"login":'], /the argument is not JSON/],
    ] as const) {
      const { code, stderr } = await call(...args);
      assert.equal(code, 2, args.join(' '));
      assert.match(stderr, message);
    }
  });

  it('when --list is given, then every declared operation is listed with its method and path', async () => {
    const { stdout } = await call('--list');
    assert.match(stdout, /^keys\.revoke\s+POST\s+\/admin\/v1\/keys\/:kid\/revoke\s/m);
  });
});
