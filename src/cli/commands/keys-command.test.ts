import assert from 'node:assert/strict';
import type { AdminApi } from '@partner-gateway/contract/admin-api-client';
import type { CliIo } from '@partner-gateway/client/cli/cli-io';
import { after, before, describe, it } from 'node:test';
import { cliHarness } from '../../../test/support/cli-harness.js';
import { testBackends } from '../../../test/support/test-databases.js';
import { startTestGateway, TEST_ADMIN_TOKEN, type TestGateway } from '../../../test/support/test-gateway.js';
import { waitFor } from '../../../test/support/wait-for.js';
import { createAdminClient } from '../admin-client.js';
import { CliError } from '@partner-gateway/client/cli/cli-io';
import { runGroup } from '@partner-gateway/client/cli/command-group';
import { auditCommand } from './audit-command.js';
import { keysCommands } from './keys-command.js';

const keysCommand = (args: string[], io: CliIo, admin: AdminApi) => runGroup(keysCommands, args, io, admin);

describe('partner-gateway keys and audit commands against a running admin API', () => {
  let t: TestGateway;
  let env: Record<string, string>;
  before(async () => {
    t = await startTestGateway(testBackends()[0]!);
    env = { ADMIN_URL: await t.admin.listen({ host: '127.0.0.1', port: 0 }), ADMIN_TOKEN: TEST_ADMIN_TOKEN };
  });
  after(() => t.close());

  const run = async (command: typeof keysCommand, args: string[]) => {
    const harness = cliHarness(env);
    await command(args, harness.io, createAdminClient(harness.io));
    return harness.stdout();
  };

  it('lists the keys and rotates one use after confirmation', async () => {
    const before = await run(keysCommand, ['list']);
    assert.match(before, /^KID\s+USE\s+ALG\s+STATE/m);
    assert.equal(before.match(/active/g)?.length, 2);
    await assert.rejects(run(keysCommand, ['rotate', '--use', 'enc']), (error: CliError) => error.exitCode === 2 && /--yes/.test(error.message));
    const rotated = await run(keysCommand, ['rotate', '--use', 'enc', '--yes']);
    assert.match(rotated, /Rotated enc: \S+ is now active/);
    const after = JSON.parse(await run(keysCommand, ['list', '--json'])) as Array<{ use: string; active: boolean }>;
    assert.equal(after.filter((key) => key.use === 'enc').length, 2);
    assert.equal(after.filter((key) => key.use === 'enc' && key.active).length, 1);
    await assert.rejects(run(keysCommand, ['rotate', '--use', 'both', '--yes']), /--use must be sig or enc/);
  });

  it('revokes a key after confirmation: it leaves the list and a new active key takes its place', async () => {
    const keys = JSON.parse(await run(keysCommand, ['list', '--json'])) as Array<{ kid: string; use: string; active: boolean }>;
    const active = keys.find((key) => key.use === 'sig' && key.active)!;
    // A generated kid may start with '-' (base64url): after `--` it is read as the kid, never as an option.
    await assert.rejects(run(keysCommand, ['revoke', '--', active.kid]), (error: CliError) => error.exitCode === 2 && /--yes/.test(error.message));
    assert.match(await run(keysCommand, ['revoke', '--yes', '--', active.kid]), new RegExp(`Revoked sig key ${active.kid}`));
    const after = JSON.parse(await run(keysCommand, ['list', '--json'])) as Array<{ kid: string; use: string; active: boolean }>;
    assert.ok(!after.some((key) => key.kid === active.kid));
    assert.equal(after.filter((key) => key.use === 'sig' && key.active).length, 1);
    await assert.rejects(run(keysCommand, ['revoke', active.kid, '--yes']), /Error 404/);
  });

  it('shows the audit trail with filters, and follows new entries', async () => {
    const partner = await t.addPartner();
    await t.app.inject({ method: 'POST', url: '/api/v1/login/', payload: { login: partner.login, password: 'wrong password' } });
    const shown = await run(auditCommand as typeof keysCommand, ['--partner', partner.login, '--outcome', 'failure', '--wide']);
    assert.match(shown, new RegExp(`login\\s+failure\\s+401\\s+${partner.login}\\s+127\\.0\\.0\\.1\\s+wrong_password\\s+1\\n`));
    assert.match(shown, /REASON\s+CALLS/, 'the calls an entry stands for (more than 1 for aggregated bearer banks calls)');

    const controller = new AbortController();
    const harness = cliHarness(env);
    const following = auditCommand(['--partner', partner.login, '--follow', '--json'], harness.io, createAdminClient(harness.io), { pollMs: 20, signal: controller.signal });
    // Following: the entries so far are printed, then the new ones as they come.
    await waitFor(() => harness.stdout().includes('"outcome":"failure"'), { message: 'the failure already recorded' });
    await t.app.inject({ method: 'POST', url: '/api/v1/login/', payload: partner });
    await waitFor(() => harness.stdout().includes('"outcome":"success"'), { message: () => `the new login's entry in ${harness.stdout()}` });
    controller.abort();
    await following;
    const lines = harness.stdout().trim().split('\n').map((line) => JSON.parse(line));
    assert.deepEqual(lines.map((entry) => entry.outcome), ['failure', 'success']);
  });
});
