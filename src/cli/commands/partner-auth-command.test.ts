import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { cliHarness } from '../../../test/support/cli-harness.js';
import { partnerPublicJwk } from '../../../test/support/partner-jwk.js';
import { testBackends } from '../../../test/support/test-databases.js';
import { startTestGateway, TEST_ADMIN_TOKEN, type TestGateway } from '../../../test/support/test-gateway.js';
import { createAdminClient } from '../admin-client.js';
import { CliError } from '@partner-gateway/client/cli/cli-io';
import { runGroup } from '@partner-gateway/client/cli/command-group';
import { partnerCommands } from './partner-command.js';

describe('partner-gateway partner set-auth against a running admin API', () => {
  let t: TestGateway;
  let env: Record<string, string>;
  before(async () => {
    t = await startTestGateway(testBackends()[0]!, { seedBanks: false });
    env = { ADMIN_URL: await t.admin.listen({ host: '127.0.0.1', port: 0 }), ADMIN_TOKEN: TEST_ADMIN_TOKEN };
  });
  after(() => t.close());

  const run = async (args: string[]) => {
    const harness = cliHarness(env);
    await runGroup(partnerCommands, args, harness.io, createAdminClient(harness.io));
    return harness.stdout();
  };

  it('changes the methods and the binding, prints them with the keys, and refuses an unknown method, nothing to change or both binding options', async () => {
    const partner = await t.addPartner();
    const key = await partnerPublicJwk('ES256', 'cli-auth');
    await t.gateway.admin.partnerKeys.set(partner.login, { keys: [key.jwk] });
    const changed = await run(['set-auth', '--yes', partner.login, '--methods', 'private_key_jwt,password', '--require-bound-tokens']);
    assert.match(changed, /auth methods: private_key_jwt, password\n/);
    assert.match(changed, /bound tokens: required \(DPoP\)/);
    assert.match(changed, new RegExp(`keys: +cli-auth  EC P-256  ES256  ${key.thumbprint}`));
    const view = await t.gateway.admin.partners.get(partner.login);
    assert.deepEqual([view.authMethods, view.requireSenderConstrainedTokens], [['private_key_jwt', 'password'], true]);
    assert.match(await run(['list']), new RegExp(`^${partner.login}\\s+active\\s+\\S+\\s+sbp\\s+private_key_jwt,password \\(bound\\)$`, 'm'));
    assert.match(await run(['set-auth', '--yes', partner.login, '--no-require-bound-tokens']), /bound tokens: not required/);
    assert.equal((await t.gateway.admin.partners.get(partner.login)).requireSenderConstrainedTokens, false);

    await assert.rejects(run(['set-auth', '--yes', partner.login, '--methods', 'sms']), (error: CliError) => error.exitCode === 2 && /unknown: sms/.test(error.message));
    await assert.rejects(run(['set-auth', '--yes', partner.login]), (error: CliError) => error.exitCode === 2 && /Nothing to change/.test(error.message));
    await assert.rejects(run(['set-auth', '--yes', partner.login, '--require-bound-tokens', '--no-require-bound-tokens']), /not both/);
  });
});
