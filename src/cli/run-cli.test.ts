import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { cliHarness } from '../../test/support/cli-harness.js';
import { freePort } from '../../test/support/free-port.js';
import { nodeEntry } from '../../test/support/node-entry.js';
import { testBackends } from '../../test/support/test-databases.js';
import { startSiblingGateway, startTestGateway, TEST_ADMIN_TOKEN, type TestGateway } from '../../test/support/test-gateway.js';
import { projectFile } from '../project-root.js';
import { runInvocation } from '@partner-gateway/client/cli/cli-io';
import { runGroup, type CommandGroup } from '@partner-gateway/client/cli/command-group';
import { ADMIN_GROUPS, CLIENT_GROUP, runCli } from './run-cli.js';

describe('partner-gateway CLI against a running admin API', () => {
  let t: TestGateway;
  let env: Record<string, string>;
  before(async () => {
    t = await startTestGateway(testBackends()[0]!, { env: { REWARD_TYPES: 'sbp,cards' } });
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
    const added = await cli(['partner', 'add', '--yes', 'cli-shop', '--ips', '127.0.0.1,10.0.0.0/8', '--rewards', 'sbp', '--password-stdin'], 'cli password 123456\n');
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
    assert.match((await cli(['partner', 'block', '--yes', 'cli-other'])).stdout, /now blocked/);
    assert.equal((await t.gateway.admin.partners.get('cli-other')).status, 'blocked');
    assert.match((await cli(['partner', 'unblock', '--yes', 'cli-other'])).stdout, /now active/);
    assert.match((await cli(['partner', 'set-ips', '--yes', 'cli-other', '192.0.2.0/24', '2001:db8::/32'])).stdout, /192\.0\.2\.0\/24, 2001:db8::\/32/);
    assert.match((await cli(['partner', 'set-rewards', '--yes', 'cli-other', 'sbp,cards'])).stdout, /cards, sbp/);
    assert.equal((await cli(['partner', 'passwd', '--yes', 'cli-other', '--password-stdin'], 'another password 1')).code, 0);
    assert.match((await cli(['partner', 'show', 'cli-other'])).stdout, /reward types: cards, sbp/);
    assert.equal((await cli(['partner', 'remove', '--yes', 'cli-other'])).code, 0);
    const gone = await cli(['partner', 'show', 'cli-other']);
    assert.equal(gone.code, 1);
    assert.match(gone.stderr, /Partner cli-other does not exist/);
  });

  it('when given a reward type outside REWARD_TYPES, then it exits 1 naming the valid ones; partner reward-types lists them, and partner show warns of one stored before', async () => {
    assert.deepEqual((await cli(['partner', 'reward-types'])).stdout.trim().split('\n'), ['sbp', 'cards']);
    await t.addPartner({ login: 'cli-typo' });
    const refused = await cli(['partner', 'set-rewards', '--yes', 'cli-typo', 'spb']);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /rewardTypes\[0\]: must be one of: sbp, cards/);
    const added = await cli(['partner', 'add', '--yes', 'cli-typo-2', '--ips', '', '--rewards', 'sbp,spb', '--password-stdin'], 'cli password 123456\n');
    assert.equal(added.code, 1);
    assert.match(added.stderr, /rewardTypes\[1\]: must be one of: sbp, cards/);
    assert.doesNotMatch((await cli(['partner', 'show', 'cli-typo'])).stdout, /WARNING/);

    const older = await startSiblingGateway(t, { env: { REWARD_TYPES: 'sbp,spb' } });
    try {
      await older.gateway.admin.partners.update('cli-typo', { rewardTypes: ['sbp', 'spb'] });
    } finally {
      await older.close();
    }
    const shown = await cli(['partner', 'show', 'cli-typo']);
    assert.match(shown.stdout, /reward types: sbp, spb\n {2}WARNING: {6}spb not in the catalogue \(REWARD_TYPES\): set the reward types again \(partner set-rewards\)\n/);
  });

  it('exits non-zero with the field named for a bad CIDR or a bad BIC', async () => {
    const badIp = await cli(['partner', 'add', '--yes', 'cli-bad', '--ips', '10.0.0.300', '--password-stdin'], 'a long password 1');
    assert.equal(badIp.code, 1);
    assert.match(badIp.stderr, /ipAllowlist\[0\]: 10\.0\.0\.300 is not an IPv4 or IPv6 address or CIDR/);
    const badBic = await cli(['bank', 'add', '--yes', '12345', 'Some bank']);
    assert.equal(badBic.code, 1);
    assert.match(badBic.stderr, /bic: must be a string of 9 digits starting with 04/);
  });

  it('when an operator reads the history and restores version 1, then bank versions, show-version and restore say who, what and the new version', async () => {
    assert.equal((await cli(['bank', 'move', '--yes', '044525974', '1', '--comment', 'T first'])).code, 0);
    const versions = await cli(['bank', 'versions', '--wide']);
    assert.equal(versions.code, 0, versions.stderr);
    assert.match(versions.stdout, /^N\s+WHEN\s+WHO\s+SOURCE/m);
    assert.match(versions.stdout, /bootstrap\s+reorder\s+\+0 ~1 -0\s+\d+\s+T first/);
    assert.match(versions.stdout, /the gateway\s+seed\s+\+39 ~0 -0/);
    const shown = await cli(['bank', 'show-version', '1']);
    assert.match(shown.stdout, /^Version 1, .* by the gateway \(seed\): 39 banks, ETag "/);
    assert.match(shown.stdout, /^\+ 044525225 Сбербанк: name Сбербанк; member id 100000000111; Latin name Sberbank; position 1$/m);
    assert.equal((await cli(['bank', 'restore', '1'])).code, 2, 'without a terminal, --yes');
    const restored = await cli(['bank', 'restore', '1', '--yes']);
    assert.equal(restored.code, 0, restored.stderr);
    assert.match(restored.stdout, /^Restoring version 1 over version \d+ \(/m);
    assert.match(restored.stdout, /Restored version 1 as version \d+/);
    assert.match((await cli(['bank', 'list'])).stdout, /^BIC.*\n044525225 /);
  });

  it('when bank import runs in a terminal, then it shows the preview and applies only after the operator says yes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-'));
    const file = join(dir, 'banks.csv');
    writeFileSync(file, 'bic,name\n049999997,Банк Терминала\n');
    const inTerminal = async (answer: string) => {
      const harness = cliHarness(env, '');
      const stdin = new PassThrough() as PassThrough & { isTTY?: boolean };
      stdin.isTTY = true;
      stdin.end(answer);
      const code = await runCli(['bank', 'import', file], { ...harness.io, stdin });
      return { code, stdout: harness.stdout(), stderr: harness.stderr() };
    };
    const refused = await inTerminal('n\n');
    assert.equal(refused.code, 1);
    assert.match(refused.stdout, /\+ 049999997 Банк Терминала[\s\S]*Apply these 1 changes as version \d+\? \[y\/N\]/);
    assert.match(refused.stderr, /Nothing changed/);
    assert.doesNotMatch((await cli(['bank', 'list'])).stdout, /049999997/);
    const accepted = await inTerminal('y\n');
    assert.equal(accepted.code, 0, accepted.stderr);
    assert.match(accepted.stdout, /Applied as version \d+: 1 added, 0 changed, 0 removed/);
    assert.match((await cli(['bank', 'list'])).stdout, /049999997/);
    assert.equal((await cli(['bank', 'remove', '--yes', '049999997'])).code, 0);
  });

  it('when a bank file is imported, then it is merged with every change printed old -> new, and --dry-run changes nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-'));
    const file = join(dir, 'banks.csv');
    writeFileSync(file, 'bic,name\n044525225,Сбербанк\n044525974,Т-Банк Тест\n');
    const dry = await cli(['bank', 'import', file, '--dry-run']);
    assert.equal(dry.code, 0, dry.stderr);
    assert.match(dry.stdout, /\(0 added, 1 changed, 0 removed\):\n~ 044525974 Т-Банк Тест: name .+ -> Т-Банк Тест/);
    assert.doesNotMatch((await cli(['bank', 'list'])).stdout, /Т-Банк Тест/);
    const unasked = await cli(['bank', 'import', file]);
    assert.equal(unasked.code, 2, 'a merge without a terminal to ask needs --yes too');
    assert.match(unasked.stderr, /no terminal to confirm it: pass --yes to go ahead \(or --dry-run to see what it would do\)/);
    assert.doesNotMatch((await cli(['bank', 'list'])).stdout, /Т-Банк Тест/);
    const imported = await cli(['bank', 'import', '--yes', file]);
    assert.equal(imported.code, 0, imported.stderr);
    assert.match(imported.stdout, /Applied as version \d+: 0 added, 1 changed, 0 removed/);
    assert.match((await cli(['bank', 'list'])).stdout, /044525974\s+Т-Банк Тест/);
    const replace = await cli(['bank', 'import', file, '--replace']);
    assert.equal(replace.code, 2, 'replacing without a terminal needs --yes');
    assert.match(replace.stderr, /--yes/);
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
    const missing = await cli(['partner', 'block', '--yes']);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /Missing login/);
  });

  it('--help lists every subcommand of every group, and each one answers its own --help', async () => {
    const help = await cli(['--help']);
    assert.equal(help.code, 0);
    const groups = { ...ADMIN_GROUPS, client: CLIENT_GROUP };
    for (const [word, group] of Object.entries(groups)) {
      const listed = new RegExp(`^  ${word} \\.\\.\\.\\s+[^\\n]*:\\s+([\\w, -]+(?:\\n {17}[\\w, -]+)*)`, 'm').exec(help.stdout)?.[1];
      assert.ok(listed, `partner-gateway --help lists ${word}`);
      assert.deepEqual(listed.split(/[\s,]+/).filter(Boolean), Object.keys(group.subcommands), `${word}'s subcommands in partner-gateway --help`);
      const own = await cli([word, '--help']);
      for (const name of Object.keys(group.subcommands)) {
        assert.match(own.stdout, new RegExp(`^  ${name}( |$)`, 'm'), `partner-gateway ${word} --help lists ${name}`);
        const usage = await cli([word, name, '--help']);
        assert.equal(usage.code, 0, `${word} ${name} --help: ${usage.stderr}`);
        assert.match(usage.stdout, new RegExp(`^Usage: partner-gateway ${word} ${name}\\b`), `${word} ${name} --help`);
      }
    }
    for (const name of ['set-jwks', 'set-auth', 'set-certs', 'set-subject', 'delete-jwks', 'delete-certs']) assert.match(help.stdout, new RegExp(`\\b${name}\\b`));
    assert.ok(help.stdout.split('\n').every((line) => line.length <= 100), 'the help fits 100 columns');
  });

  it('--version prints the version in package.json', async () => {
    const { version } = JSON.parse(readFileSync(projectFile('package.json'), 'utf8')) as { version: string };
    for (const flag of ['--version', '-V']) {
      const result = await cli([flag]);
      assert.equal(result.code, 0);
      assert.equal(result.stdout, `${version}\n`);
    }
  });

  it('bank list fits 100 columns, cutting long names with …, and --wide prints them whole', async () => {
    // A bank under its full legal name, as an ED807 import names it.
    const legal = 'Публичное акционерное общество «Сбербанк России» (полное фирменное наименование кредитной организации из справочника БИК)';
    await cli(['bank', 'import', '--yes', projectFile('seeds/sbp-banks.json')]);
    assert.equal((await cli(['bank', 'add', '--yes', '044599001', legal, '--name-en', 'Sberbank of Russia, public joint-stock company'])).code, 0);
    const banks = await t.gateway.admin.banks.list();
    const wide = await cli(['bank', 'list', '--wide']);
    const longest = Math.max(...wide.stdout.split('\n').map((line) => line.length));
    assert.ok(longest > 100, `the seed's names make a table wider than 100 columns (${longest})`);
    for (const bank of banks) assert.ok(wide.stdout.includes(bank.name), bank.name);
    const cut = await cli(['bank', 'list']);
    const lines = cut.stdout.trimEnd().split('\n');
    assert.equal(lines.length, banks.length + 1);
    assert.ok(lines.every((line) => line.length <= 100), cut.stdout);
    assert.match(cut.stdout, /…/);
    for (const bank of banks) assert.match(cut.stdout, new RegExp(`^${bank.bic}  `, 'm'), 'every BIC whole');
  });

  it('never takes a password from the command line: without stdin or a terminal it refuses', async () => {
    const result = await cli(['partner', 'passwd', '--yes', 'anyone']);
    assert.equal(result.code, 2);
    assert.match(result.stderr, /--password-stdin/);
  });

  it('runs as a process and exits with the code it reports', async () => {
    const run = promisify(execFile);
    await assert.rejects(
      run(process.execPath, [...nodeEntry('src/cli/main.ts'), 'partner', 'list'], { env: { ...process.env, ADMIN_URL: `http://127.0.0.1:${await freePort()}`, ADMIN_TOKEN: 'x'.repeat(40) } }),
      (error: { code: number; stderr: string }) => error.code === 3 && /not reachable/.test(error.stderr),
    );
  });
});

describe('confirmation of changing commands without a terminal', () => {
  /** Arguments that make a subcommand whose `changes` depends on them change data. */
  const CHANGING_ARGS = [['approve'], ['reject'], ['--require', 'key.revoke'], ['--none'], ['placeholder']];
  const groups: Record<string, CommandGroup<never>> = { ...ADMIN_GROUPS, client: CLIENT_GROUP };
  const changing = Object.entries(groups).flatMap(([group, { subcommands }]) =>
    Object.entries(subcommands).flatMap(([name, { changes }]) => {
      const args = CHANGING_ARGS.find((candidate) => (typeof changes === 'function' ? changes(candidate) : changes));
      return args ? [{ group, name, args }] : [];
    }),
  );
  /** An admin client that fails the test if the command reaches for it: nothing may be sent before consent. */
  const untouchable = new Proxy({}, { get: (_target, property) => assert.fail(`the command used the admin client (${String(property)}) before it was confirmed`) });

  it('when the command tables are read, then most admin commands are marked as changing data', () => {
    assert.ok(changing.length >= 25, `${changing.length} changing commands: ${changing.map(({ group, name }) => `${group} ${name}`).join(', ')}`);
    assert.ok(!changing.some(({ group }) => group === 'client'), "the partner's commands change nothing here");
  });

  it('when a changing command runs with no terminal on stdin and without --yes, then it refuses before sending anything, naming --yes (or what is lost, where --yes is always needed)', async () => {
    for (const { group, name, args } of changing) {
      const harness = cliHarness({});
      const code = await runInvocation(harness.io, () => runGroup(groups[group]!, [name, ...args], harness.io, untouchable as never));
      assert.equal(code, 2, `${group} ${name}: ${harness.stderr()}`);
      assert.match(harness.stderr(), new RegExp(`^(partner-gateway ${group} ${name} changes data and there is no terminal to confirm it: pass --yes|.*; confirm with --yes)`), `${group} ${name}`);
    }
  });

  it('when a changing command is given --yes, then its parser accepts it and its usage shows it', async () => {
    for (const { group, name } of changing) {
      const harness = cliHarness({});
      const code = await runInvocation(harness.io, () => runGroup(groups[group]!, [name, '--yes', '--help'], harness.io, untouchable as never));
      assert.equal(code, 0, `${group} ${name}: ${harness.stderr()}`);
      assert.match(harness.stdout(), new RegExp(`^Usage: partner-gateway ${group} ${name} .*--yes`), `${group} ${name}`);
    }
  });
});
