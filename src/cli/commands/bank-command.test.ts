import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { cliHarness } from '../../../test/support/cli-harness.js';
import { testBackends } from '../../../test/support/test-databases.js';
import { startTestGateway, TEST_ADMIN_TOKEN, type TestGateway } from '../../../test/support/test-gateway.js';
import { runCli } from '../run-cli.js';

describe('partner-gateway bank export and import --curate against a running admin API', () => {
  let t: TestGateway;
  let env: Record<string, string>;
  const dir = mkdtempSync(join(tmpdir(), 'bank-csv-'));
  before(async () => {
    t = await startTestGateway(testBackends()[0]!);
    env = { ADMIN_URL: await t.admin.listen({ host: '127.0.0.1', port: 0 }), ADMIN_TOKEN: TEST_ADMIN_TOKEN };
  });
  after(() => t.close());

  async function cli(args: string[]) {
    const harness = cliHarness(env, '');
    const code = await runCli(args, harness.io);
    return { code, stdout: harness.stdout(), stderr: harness.stderr() };
  }

  it('when the list is exported with ; and one name is edited, then import --curate previews that one field, lists the stray BIC and applies one version', async () => {
    const file = join(dir, 'banks.csv');
    const exported = await cli(['bank', 'export', file, '--separator', ';']);
    assert.equal(exported.code, 0, exported.stderr);
    assert.match(exported.stdout, /^Exported version 1 \(39 banks\) to .*banks\.csv; import it back with: partner-gateway bank import .* --curate$/m);
    const text = readFileSync(file, 'utf8');
    assert.ok(text.startsWith('\ufeffbic;name;nameEn;sbpMemberId;nameSource;nameEnSource;sbpMemberIdSource\r\n044525225;Сбербанк;Sberbank;100000000111;;;\r\n'));
    writeFileSync(file, `${text.replace('044525225;Сбербанк;', '044525225;Сбер;')}049999999;Нет в списке;;;;;\r\n`);

    const dry = await cli(['bank', 'import', file, '--curate', '--dry-run']);
    assert.equal(dry.code, 0, dry.stderr);
    assert.match(dry.stdout, /^Setting the curated fields of banks\.csv \(40 banks\) on version 1/m);
    assert.match(dry.stdout, /^~ 044525225 Сбер: name Сбербанк -> Сбер$/m);
    assert.match(dry.stdout, /^Not in the list, not added \(1\): 049999999$/m);
    const applied = await cli(['bank', 'import', file, '--curate', '--yes']);
    assert.equal(applied.code, 0, applied.stderr);
    assert.match(applied.stdout, /Applied as version 2: 0 added, 1 changed, 0 removed/);
    assert.equal((await cli(['bank', 'import', file, '--curate', '--replace', '--yes'])).code, 2);
    assert.equal((await cli(['bank', 'export', file, '--separator', 'tab'])).code, 2);
  });
});
