import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { cliHarness } from '../../../test/support/cli-harness.js';
import { ED807_MAY_2023 } from '../../../test/support/ed807-directory.js';
import { testBackends } from '../../../test/support/test-databases.js';
import { startTestGateway, TEST_ADMIN_TOKEN, type TestGateway } from '../../../test/support/test-gateway.js';
import { runCli } from '../run-cli.js';

describe('partner-gateway bank queue, admit, exclude, unexclude and exclusion against a running admin API', () => {
  let t: TestGateway;
  let env: Record<string, string>;
  before(async () => {
    t = await startTestGateway(testBackends()[0]!);
    env = { ADMIN_URL: await t.admin.listen({ host: '127.0.0.1', port: 0 }), ADMIN_TOKEN: TEST_ADMIN_TOKEN };
    await t.gateway.admin.banks.importFile(readFileSync(ED807_MAY_2023), 'application/xml', undefined);
  });
  after(() => t.close());

  async function cli(args: string[]) {
    const harness = cliHarness(env, '');
    const code = await runCli(args, harness.io);
    return { code, stdout: harness.stdout(), stderr: harness.stderr() };
  }

  it('when an operator lists the queue, then each bank shows its suggested name, registry name and state, excluded ones with their rule', async () => {
    const shown = await cli(['bank', 'queue', '--wide']);
    assert.equal(shown.code, 0, shown.stderr);
    assert.match(shown.stdout, /^164 pending, 11 excluded$/m);
    assert.match(shown.stdout, /^\d{9} +ФФИН Банк +ООО "ФФИН Банк" +pending$/m);
    assert.match(shown.stdout, /^044525444 +НКО ЮМани +ООО НКО "ЮМани" +excluded: name НКО \(non-bank credit organisation/m);
    const pending = await cli(['bank', 'queue', '--pending', '--json']);
    assert.equal(JSON.parse(pending.stdout).banks.length, 164);
  });

  it('when an operator admits two banks, one under an edited name, then they are one version; exclude and unexclude need BICs and a reason', async () => {
    const { banks } = await t.gateway.admin.bankAdmissions.queue();
    const [a, b] = banks.filter((bank) => bank.state === 'pending');
    assert.equal((await cli(['bank', 'admit', '--yes', a!.bic, b!.bic, '--name', 'Два'])).code, 2, '--name names one bank');
    const renamed = await cli(['bank', 'admit', '--yes', a!.bic, '--name', 'Мой банк']);
    assert.equal(renamed.code, 0, renamed.stderr);
    assert.match(renamed.stdout, new RegExp(`^Admitted as version 3: 1 added\\n\\+ ${a!.bic} Мой банк$`, 'm'));
    assert.match((await cli(['bank', 'admit', '--yes', b!.bic])).stdout, new RegExp(`^\\+ ${b!.bic} ${b!.suggestedName}$`, 'm'));
    const c = banks.filter((bank) => bank.state === 'pending')[2]!;
    assert.equal((await cli(['bank', 'exclude', '--yes', c.bic])).code, 2, 'a reason is needed');
    assert.match((await cli(['bank', 'exclude', '--yes', c.bic, '--reason', 'closing'])).stdout, new RegExp(`^Excluded: ${c.bic}$`, 'm'));
    assert.match((await cli(['bank', 'exclusions'])).stdout, new RegExp(`bic +${c.bic} +closing +bootstrap`));
    assert.match((await cli(['bank', 'unexclude', '--yes', c.bic])).stdout, new RegExp(`^Exclusion lifted: ${c.bic}$`, 'm'));
    const rule = await cli(['bank', 'exclusion', 'add', '--yes', 'КИВИ', 'Банк', '--reason', 'licence revoked']);
    assert.match(rule.stdout, /^Rule (\d+): name КИВИ Банк \(licence revoked\)$/m);
    const id = /^Rule (\d+)/m.exec(rule.stdout)![1]!;
    assert.match((await cli(['bank', 'exclusion', 'remove', '--yes', id])).stdout, new RegExp(`^Exclusion ${id} removed.$`, 'm'));
    const missing = await cli(['bank', 'exclusion', 'remove', '--yes', id]);
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, new RegExp(`Bank exclusion ${id} does not exist`));
  });
});
