import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { cliHarness } from '../../../test/support/cli-harness.js';
import { testBackends } from '../../../test/support/test-databases.js';
import { startTestGateway, TEST_ADMIN_TOKEN, type TestGateway } from '../../../test/support/test-gateway.js';
import { runCli } from '../run-cli.js';

describe('partner-gateway bank import-participants, participants, confirm-match and reject-match against a running admin API', () => {
  let t: TestGateway;
  let env: Record<string, string>;
  const dir = mkdtempSync(join(tmpdir(), 'participants-cli-'));
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

  it('when an operator imports a CSV list, then the preview names matches, proposals and unmatched entries, and a confirmed match sets the member id', async () => {
    const [sber, vtb] = (await t.gateway.admin.banks.list()).slice(0, 2);
    const file = join(dir, 'b2c.csv');
    writeFileSync(file, `memberId,name,bic\n111111111111,${vtb!.name},${vtb!.bic}\n222222222222,"ПАО ""${sber!.name.toUpperCase()}""",\n333333333333,Нет такого банка,\n`);
    const preview = await cli(['bank', 'import-participants', file, '--dry-run']);
    assert.equal(preview.code, 0, preview.stderr);
    assert.match(preview.stdout, new RegExp(`^~ ${vtb!.bic} ${vtb!.name}: member id \\d{12} -> 111111111111`, 'm'));
    assert.match(preview.stdout, /^3 participants: 1 matched by BIC, 0 by member id, 1 proposed by name, 1 unmatched; \d+ banks unmatched$/m);
    assert.match(preview.stdout, new RegExp(`^\\? ${sber!.bic} ${sber!.name} <- 222222222222`, 'm'));
    const applied = await cli(['bank', 'import-participants', file, '--yes']);
    assert.equal(applied.code, 0, applied.stderr);
    assert.match(applied.stdout, /^Applied as version \d+: \d+ banks changed, 1 name matches wait for confirmation$/m);
    assert.match((await cli(['bank', 'participants', '--wide'])).stdout, new RegExp(`^${sber!.bic} +${sber!.name} +222222222222 +ПАО "${sber!.name.toUpperCase()}" +pending$`, 'm'));
    const confirmed = await cli(['bank', 'confirm-match', '--yes', sber!.bic]);
    assert.equal(confirmed.code, 0, confirmed.stderr);
    assert.match(confirmed.stdout, new RegExp(`member id \\d{12} -> 222222222222`));
    assert.equal((await t.gateway.admin.banks.list()).find((bank) => bank.bic === sber!.bic)!.sources.sbpMemberId?.source, 'participants');
    const missing = await cli(['bank', 'reject-match', '--yes', sber!.bic]);
    assert.match(missing.stdout, new RegExp(`^Rejected: none; no proposal waits for: ${sber!.bic}$`, 'm'));
    assert.equal((await cli(['bank', 'import-participants', join(dir, 'b2c.txt')])).code, 2, 'an unknown format is refused before anything is sent');
  });
});
