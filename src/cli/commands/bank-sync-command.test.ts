import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { cliHarness } from '../../../test/support/cli-harness.js';
import { directoryWithout, ED807_MAY_2023 } from '../../../test/support/ed807-directory.js';
import { testBackends } from '../../../test/support/test-databases.js';
import { startTestGateway, TEST_ADMIN_TOKEN, type TestGateway } from '../../../test/support/test-gateway.js';
import { runCli } from '../run-cli.js';

describe('partner-gateway bank sync, sync-status and pending against a running admin API', () => {
  let t: TestGateway;
  let env: Record<string, string>;
  let served: Buffer = readFileSync(ED807_MAY_2023);
  const source = createServer((_request, response) => response.writeHead(200, { 'content-type': 'application/xml' }).end(served));
  before(async () => {
    await new Promise<void>((resolve) => source.listen(0, '127.0.0.1', resolve));
    t = await startTestGateway(testBackends()[0]!, { env: { BANKS_SYNC_URL: `http://127.0.0.1:${(source.address() as AddressInfo).port}/ed807.xml`, BANKS_AUTO_ADMIT: 'true' } });
    env = { ADMIN_URL: await t.admin.listen({ host: '127.0.0.1', port: 0 }), ADMIN_TOKEN: TEST_ADMIN_TOKEN };
  });
  after(async () => {
    await t.close();
    await new Promise<void>((resolve) => source.close(() => resolve()));
  });

  async function cli(args: string[]) {
    const harness = cliHarness(env, '');
    const code = await runCli(args, harness.io);
    return { code, stdout: harness.stdout(), stderr: harness.stderr() };
  }

  it('when an operator runs bank sync --dry-run, then every change is printed and nothing changes; with --yes it applies as a version', async () => {
    const dry = await cli(['bank', 'sync', '--dry-run']);
    assert.equal(dry.code, 0, dry.stderr);
    assert.match(dry.stdout, /^Syncing http:\/\/127\.0\.0\.1:\d+\/ed807\.xml \(\d+ SBP head offices\) into version 1: 164 added, 39 changed, 0 removed$/m);
    assert.match(dry.stdout, /^~ 044525225 Сбербанк: registry name — -> ПАО Сбербанк; SBP — -> yes$/m);
    assert.equal((await t.gateway.admin.banks.currentVersion()), 1);
    const run = await cli(['bank', 'sync', '--yes']);
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^Run \d+ \(manual, bootstrap, .*\): applied as version 2: 164 added, 39 changed, 0 removed$/m);
  });

  it('when the removal guard holds a sync, then bank sync exits 4 naming the run, and bank pending shows, refuses without --yes, and approves it', async () => {
    const banks = (await t.gateway.admin.banks.list()).slice(-30).map((bank) => bank.bic);
    served = directoryWithout(banks);
    const held = await cli(['bank', 'sync', '--yes']);
    assert.equal(held.code, 4);
    assert.match(held.stdout, /The removal guard will hold this run: it would remove 30 banks/);
    assert.match(held.stderr, /Held as run (\d+): partner-gateway bank pending approve \1/);
    const shown = await cli(['bank', 'pending', 'show']);
    assert.equal(shown.stdout.split('\n').filter((line) => line.startsWith('- ')).length, 30, shown.stdout + shown.stderr);
    assert.match((await cli(['bank', 'sync-status'])).stdout, /Waiting for a decision: Run \d+ \(manual/);
    assert.equal((await cli(['bank', 'pending', 'approve'])).code, 2, 'not in a terminal: --yes');
    const approved = await cli(['bank', 'pending', 'approve', '--yes', '--comment', 'NSPK confirmed']);
    assert.equal(approved.code, 0, approved.stderr);
    assert.match(approved.stdout, /held: it would remove 30 banks .*\(approved, version 3\)/);
    assert.equal((await t.gateway.admin.banks.list()).length, 214 - 11 - 30);
    const none = await cli(['bank', 'pending', 'show']);
    assert.deepEqual([none.code, none.stderr.trim()], [1, 'No sync run is waiting for a decision.']);
  });
});
