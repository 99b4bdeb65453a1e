import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { cliHarness } from '../../../test/support/cli-harness.js';
import { testBackends } from '../../../test/support/test-databases.js';
import { startTestGateway, TEST_ADMIN_TOKEN, type TestGateway } from '../../../test/support/test-gateway.js';
import { createAdminClient } from '../admin-client.js';
import { CliError } from '@partner-gateway/client/cli/cli-io';
import { runGroup } from '@partner-gateway/client/cli/command-group';
import { partnerCommands } from './partner-command.js';

describe('partner-gateway partner add-webhook, webhooks, rotate-webhook, webhook-log, replay-webhook and delete-webhook against a running admin API', () => {
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

  it('when an operator registers, lists, rotates, replays and removes an endpoint, then each prints what it did and the secret only when made', async () => {
    const { login } = await t.addPartner();
    const added = await run(['add-webhook', '--yes', login, 'https://partner.example/hooks', '--scheme', 'v1']);
    const id = /Webhook (\S+) -> https:\/\/partner\.example\/hooks \(v1\)/.exec(added)?.[1];
    assert.ok(id, added);
    const secret = /Secret \(shown once[^)]*\): (whsec_\S+)/.exec(added)?.[1];
    assert.ok(secret, added);
    const listed = await run(['webhooks', login]);
    assert.match(listed, new RegExp(`${id}\\s+v1\\s+enabled\\s+https://partner.example/hooks`));
    assert.ok(!listed.includes(secret.slice(6)), 'no secret in the list');
    const rotated = await run(['rotate-webhook', '--yes', login, id, '--overlap-hours', '1']);
    assert.match(rotated, /Secret \(shown once/);
    assert.ok(!rotated.includes(secret), 'a new secret');
    assert.equal((await run(['webhook-log', login, id])).trim(), 'No attempts yet.');
    assert.match(await run(['replay-webhook', '--yes', login, id, '--since', new Date(Date.now() - 60_000).toISOString()]), /^Queued 0 deliveries/);
    await assert.rejects(run(['replay-webhook', '--yes', login, id]), (error: unknown) => error instanceof CliError && /--event or --since/.test(error.message));
    assert.match(await run(['delete-webhook', '--yes', login, id]), new RegExp(`Removed webhook ${id}`));
    assert.equal((await run(['webhooks', login])).trim(), 'No webhook endpoints.');
    const ed = await run(['add-webhook', '--yes', login, 'https://partner.example/ed']);
    assert.match(ed, /\(v1a\)\nPublic key \(give it to the partner\): whpk_/);
  });
});
