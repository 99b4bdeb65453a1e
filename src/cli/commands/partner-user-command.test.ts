import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { cliHarness } from '../../../test/support/cli-harness.js';
import { testBackends } from '../../../test/support/test-databases.js';
import { startTestGateway, TEST_ADMIN_TOKEN, type TestGateway } from '../../../test/support/test-gateway.js';
import { createAdminClient } from '../admin-client.js';
import { CliError } from '@partner-gateway/client/cli/cli-io';
import { runGroup } from '@partner-gateway/client/cli/command-group';
import { partnerCommands } from './partner-command.js';

describe('partner-gateway partner invite and users against a running admin API', () => {
  let t: TestGateway;
  let env: Record<string, string>;
  before(async () => {
    t = await startTestGateway(testBackends()[0]!);
    env = { ADMIN_URL: await t.admin.listen({ host: '127.0.0.1', port: 0 }), ADMIN_TOKEN: TEST_ADMIN_TOKEN };
  });
  after(() => t.close());
  const run = async (args: string[]) => {
    const harness = cliHarness(env);
    await runGroup(partnerCommands, args, harness.io, createAdminClient(harness.io));
    return harness.stdout();
  };

  it('when an operator invites a person, then the link is printed once and the list shows the invitation without it', async () => {
    const { login } = await t.addPartner();
    assert.equal((await run(['users', login])).trim(), 'No people and no pending invitations.');
    const invited = await run(['invite', '--yes', login, 'anna@acme.example']);
    const link = /Link \(shown once; give it to the person only\): (\S+)/.exec(invited)?.[1];
    assert.match(link ?? '', /\/portal\/#invitation=[A-Za-z0-9_-]{43}$/, invited);
    assert.match(invited, /Invitation for anna@acme\.example \(partner-admin\)/);
    const listed = await run(['users', login]);
    assert.match(listed, /anna@acme\.example\s+partner-admin\s+invited/);
    assert.ok(!listed.includes(link!.split('#invitation=')[1]!), 'no secret in the list');
    await assert.rejects(run(['invite', '--yes', login, 'x@acme.example', '--role', 'owner']), (error: unknown) => error instanceof CliError && /--role is partner-admin or partner-developer/.test(error.message));
  });
});
