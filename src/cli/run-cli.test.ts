import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { cliHarness } from '../../test/support/cli-harness.js';
import { freePort } from '../../test/support/free-port.js';
import { testBackends } from '../../test/support/test-databases.js';
import { startTestGateway, TEST_ADMIN_TOKEN, type TestGateway } from '../../test/support/test-gateway.js';
import { runCli } from './run-cli.js';

describe('partner-gateway CLI against a running admin API', () => {
  let t: TestGateway;
  let env: Record<string, string>;
  before(async () => {
    t = await startTestGateway(testBackends()[0]!);
    const adminUrl = await t.admin.listen({ host: '127.0.0.1', port: 0 });
    env = { ADMIN_URL: adminUrl, ADMIN_TOKEN: TEST_ADMIN_TOKEN };
  });
  after(() => t.close());

  async function cli(args: string[], stdin = '', extraEnv: Record<string, string> = {}) {
    const harness = cliHarness({ ...env, ...extraEnv }, stdin);
    const code = await runCli(args, harness.io);
    return { code, stdout: harness.stdout(), stderr: harness.stderr() };
  }

  it('adds a partner with the password from stdin, and that partner can log in', async () => {
    const added = await cli(['partner', 'add', 'cli-shop', '--ips', '127.0.0.1,10.0.0.0/8', '--rewards', 'sbp', '--password-stdin'], 'cli password 123456\n');
    assert.equal(added.code, 0, added.stderr);
    assert.match(added.stdout, /Created partner cli-shop/);
    assert.match(added.stdout, /127\.0\.0\.1\/32, 10\.0\.0\.0\/8/);
    const login = await t.app.inject({ method: 'POST', url: '/api/v1/login/', payload: { login: 'cli-shop', password: 'cli password 123456' } });
    assert.equal(login.statusCode, 200);
  });

  it('lists, shows, blocks, unblocks, changes allowlist, rewards and password, and removes', async () => {
    await t.addPartner({ login: 'cli-other' });
    const list = await cli(['partner', 'list']);
    assert.match(list.stdout, /^LOGIN\s+STATUS/m);
    assert.match(list.stdout, /cli-other\s+active/);
    const json = JSON.parse((await cli(['partner', 'list', '--json'])).stdout);
    assert.ok(json.some((p: { login: string }) => p.login === 'cli-other'));
    assert.match((await cli(['partner', 'block', 'cli-other'])).stdout, /now blocked/);
    assert.equal((await t.gateway.admin.partners.get('cli-other')).status, 'blocked');
    assert.match((await cli(['partner', 'unblock', 'cli-other'])).stdout, /now active/);
    assert.match((await cli(['partner', 'set-ips', 'cli-other', '192.0.2.0/24', '2001:db8::/32'])).stdout, /192\.0\.2\.0\/24, 2001:db8::\/32/);
    assert.match((await cli(['partner', 'set-rewards', 'cli-other', 'sbp,cards'])).stdout, /cards, sbp/);
    assert.equal((await cli(['partner', 'passwd', 'cli-other', '--password-stdin'], 'another password 1')).code, 0);
    assert.match((await cli(['partner', 'show', 'cli-other'])).stdout, /reward types: cards, sbp/);
    assert.equal((await cli(['partner', 'remove', 'cli-other'])).code, 0);
    const gone = await cli(['partner', 'show', 'cli-other']);
    assert.equal(gone.code, 1);
    assert.match(gone.stderr, /Partner cli-other does not exist/);
  });

  it('exits non-zero with the field named for a bad CIDR or a bad BIC', async () => {
    const badIp = await cli(['partner', 'add', 'cli-bad', '--ips', '10.0.0.300', '--password-stdin'], 'a long password 1');
    assert.equal(badIp.code, 1);
    assert.match(badIp.stderr, /ipAllowlist\[0\]: 10\.0\.0\.300 is not an IPv4 or IPv6 address or CIDR/);
    const badBic = await cli(['bank', 'add', '12345', 'Some bank']);
    assert.equal(badBic.code, 1);
    assert.match(badBic.stderr, /bic: must be a string of 9 digits starting with 04/);
  });

  it('imports a bank file and lists the banks', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-'));
    const file = join(dir, 'banks.csv');
    writeFileSync(file, 'bic,name\n044525225,Сбербанк\n044525974,Т-Банк\n');
    const imported = await cli(['bank', 'import', file]);
    assert.equal(imported.code, 0, imported.stderr);
    assert.match(imported.stdout, /Imported 2 banks: 0 added, 2 changed, 37 removed/);
    assert.match((await cli(['bank', 'list'])).stdout, /044525974\s+Т-Банк/);
    const unknown = await cli(['bank', 'import', join(dir, 'banks.txt')]);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /--type/);
  });

  it('says clearly when the gateway is not running, or the token is missing or wrong', async () => {
    const closedPort = await freePort();
    const down = await cli(['partner', 'list'], '', { ADMIN_URL: `http://127.0.0.1:${closedPort}` });
    assert.equal(down.code, 3);
    assert.match(down.stderr, new RegExp(`not reachable at http://127\\.0\\.0\\.1:${closedPort} \\(ECONNREFUSED\\)`));
    const wrong = await cli(['partner', 'list'], '', { ADMIN_TOKEN: 'x'.repeat(40) });
    assert.equal(wrong.code, 1);
    assert.match(wrong.stderr, /Error 401/);
    const none = await cli(['partner', 'list'], '', { ADMIN_TOKEN: '', DATA_DIR: '/nonexistent' });
    assert.equal(none.code, 2);
  });

  it('prints help for every command and a usage error for unknown ones', async () => {
    for (const args of [['--help'], ['partner', '--help'], ['bank', '--help'], ['keys', '--help'], ['audit', '--help'], ['partner', 'add', '--help'], ['bank', 'import', '--help'], ['partner', 'set-ips', '--help']]) {
      const result = await cli(args);
      assert.equal(result.code, 0, args.join(' '));
      assert.match(result.stdout, /Usage: partner-gateway/);
    }
    const unknown = await cli(['partner', 'fly']);
    assert.equal(unknown.code, 2);
    const option = await cli(['partner', 'list', '--colour']);
    assert.equal(option.code, 2);
    assert.match(option.stderr, /Unknown option '--colour'/);
    const missing = await cli(['partner', 'block']);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /Missing login/);
  });

  it('never takes a password from the command line: without stdin or a terminal it refuses', async () => {
    const result = await cli(['partner', 'passwd', 'anyone']);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /--password-stdin/);
  });

  it('runs as a process and exits with the code it reports', async () => {
    const run = promisify(execFile);
    await assert.rejects(
      run(process.execPath, ['--import', 'tsx', 'src/cli/main.ts', 'partner', 'list'], { env: { ...process.env, ADMIN_URL: `http://127.0.0.1:${await freePort()}`, ADMIN_TOKEN: 'x'.repeat(40) } }),
      (error: { code: number; stderr: string }) => error.code === 3 && /not reachable/.test(error.stderr),
    );
  });
});
