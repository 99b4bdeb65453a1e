import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { cliHarness } from '../../../test/support/cli-harness.js';
import { testBackends } from '../../../test/support/test-databases.js';
import { startTestGateway, TEST_ADMIN_TOKEN, type TestGateway } from '../../../test/support/test-gateway.js';
import { runCli } from '../run-cli.js';

describe('partner-gateway operator, token and approval commands against a running admin API', () => {
  let t: TestGateway;
  let url: string;
  const dir = mkdtempSync(join(tmpdir(), 'cli-operators-'));
  before(async () => {
    t = await startTestGateway(testBackends()[0]!);
    url = await t.admin.listen({ host: '127.0.0.1', port: 0 });
  });
  after(async () => {
    await t.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const cli = async (env: Record<string, string>, ...args: string[]) => {
    const harness = cliHarness({ ADMIN_URL: url, DATA_DIR: dir, ...env });
    const code = await runCli(args, harness.io);
    return { code, stdout: harness.stdout(), stderr: harness.stderr() };
  };
  const bootstrap = { ADMIN_TOKEN: TEST_ADMIN_TOKEN };

  it('when the bootstrap admin adds operators and gives them tokens, then each acts as itself from PARTNER_GATEWAY_ADMIN_TOKEN or a file', async () => {
    const added = await cli(bootstrap, 'operator', 'add', '--yes', 'cli-alice', '--role', 'security');
    assert.equal(added.code, 0, added.stderr);
    const id = /\(([0-9a-f-]{36})\)/.exec(added.stdout)![1]!;
    const issued = await cli(bootstrap, 'token', 'create', '--yes', id, '--label', 'laptop', '--days', '30');
    assert.equal(issued.code, 0, issued.stderr);
    const token = issued.stdout.split('\n')[0]!;
    assert.match(token, /^pgw_/);
    const whoami = await cli({ PARTNER_GATEWAY_ADMIN_TOKEN: token }, 'operator', 'whoami');
    assert.match(whoami.stdout, /^cli-alice \([0-9a-f-]{36}\), role security, with a personal token/);
    const file = join(dir, 'token');
    writeFileSync(file, `${token}\n`, { mode: 0o600 });
    assert.match((await cli({ PARTNER_GATEWAY_ADMIN_TOKEN_FILE: file, ...bootstrap }, 'operator', 'whoami')).stdout, /^cli-alice/, 'the personal token wins over ADMIN_TOKEN');
    assert.match((await cli(bootstrap, 'operator', 'whoami')).stdout, /^bootstrap \(bootstrap\), role bootstrap/, 'ADMIN_TOKEN alone still works');
    writeFileSync(join(dir, 'admin-token'), `${TEST_ADMIN_TOKEN}\n`);
    assert.match((await cli({}, 'operator', 'whoami')).stdout, /^bootstrap/, 'and so does DATA_DIR/admin-token');
    assert.equal((await cli({ PARTNER_GATEWAY_ADMIN_TOKEN_FILE: join(dir, 'missing') }, 'operator', 'whoami')).code, 2);

    const mine = await cli({ PARTNER_GATEWAY_ADMIN_TOKEN: token }, 'token', 'create', '--yes', 'me', '--label', 'second');
    const second = mine.stdout.split('\n')[0]!;
    const listed = await cli({ PARTNER_GATEWAY_ADMIN_TOKEN: token }, 'token', 'list', 'me');
    assert.match(listed.stdout, /laptop/);
    assert.ok(!listed.stdout.includes(second.slice(4)), 'never the token');
    const tokenId = /^(\S+)\s+second\s/m.exec(listed.stdout)![1]!;
    assert.equal((await cli({ PARTNER_GATEWAY_ADMIN_TOKEN: token }, 'token', 'revoke', '--yes', 'me', tokenId)).code, 0);
    const refused = await cli({ PARTNER_GATEWAY_ADMIN_TOKEN: second }, 'operator', 'whoami');
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /Error 401/);
  });

  it('when an action needs approval, then the CLI says it is proposed (exit 4) and another operator approves it', async () => {
    const sam = await t.addOperator('security', { name: 'cli-sam' });
    const cleo = await t.addOperator('security', { name: 'cli-cleo' });
    assert.equal((await cli({ PARTNER_GATEWAY_ADMIN_TOKEN: sam.token }, 'approval', 'settings', '--yes', '--require', 'key.revoke')).code, 0);
    const kid = (await t.gateway.admin.keys.list()).find((key) => key.use === 'enc' && key.active)!.kid;
    const proposed = await cli({ PARTNER_GATEWAY_ADMIN_TOKEN: sam.token }, 'keys', 'revoke', kid, '--yes');
    assert.equal(proposed.code, 4);
    assert.match(proposed.stderr, /Proposed, not done: key\.revoke of encryption key/);
    const id = /approval approve (\S+)/.exec(proposed.stderr)![1]!;
    assert.match((await cli({ PARTNER_GATEWAY_ADMIN_TOKEN: cleo.token }, 'approval', 'list', '--status', 'pending')).stdout, new RegExp(id));
    assert.match((await cli({ PARTNER_GATEWAY_ADMIN_TOKEN: cleo.token }, 'approval', 'show', id)).stdout, /proposed by cli-sam/);
    const own = await cli({ PARTNER_GATEWAY_ADMIN_TOKEN: sam.token }, 'approval', 'approve', id, '--yes');
    assert.equal(own.code, 1);
    const approved = await cli({ PARTNER_GATEWAY_ADMIN_TOKEN: cleo.token }, 'approval', 'approve', id, '--yes');
    assert.equal(approved.code, 0, approved.stderr);
    assert.match(approved.stdout, /Approved and applied: key\.revoke/);
    assert.ok(!(await t.gateway.admin.keys.list()).some((key) => key.kid === kid));
    assert.equal((await cli({ PARTNER_GATEWAY_ADMIN_TOKEN: sam.token }, 'approval', 'settings', '--none', '--yes')).code, 0);
  });
});
