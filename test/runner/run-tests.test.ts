import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';
import { projectFile } from '../../src/project-root.js';

const run = promisify(execFile);

/**
 * Writes `files` under `root`, runs the runner there with `args`, which must fail, and gives its exit code and
 * output. Without NODE_TEST_CONTEXT, which would make the inner run report to this one instead of printing.
 */
async function failingRun(root: string, files: Record<string, string>, args: string[] = []): Promise<{ code: number; stdout: string }> {
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  // tsx, which the runner imports into each test process, is found from the working directory.
  symlinkSync(projectFile('node_modules'), join(root, 'node_modules'));
  const { NODE_TEST_CONTEXT: _, ...env } = process.env;
  return run(process.execPath, [projectFile('scripts/run-tests.mjs'), ...args], { cwd: root, env }).then(
    () => assert.fail('the run passed'),
    (error: { code: number; stdout: string }) => error,
  );
}

describe('the test runner (scripts/run-tests.mjs)', () => {
  it('ends with node\'s own summary, then one line per reason naming every skipped suite and test', async () => {
    // Without NODE_TEST_CONTEXT, which would make the inner run report to this one instead of printing.
    const { NODE_TEST_CONTEXT: _, ...env } = process.env;
    const { stdout } = await run(process.execPath, [projectFile('scripts/run-tests.mjs'), 'test/runner/skipping-suites.fixture.ts'], { cwd: projectFile('.'), env });
    const lines = stdout.trimEnd().split('\n');
    const closing = lines.findIndex((line) => /^(# |ℹ )tests \d+$/.test(line));
    assert.ok(closing > 0, stdout);
    assert.ok(lines.slice(closing).some((line) => /^(# |ℹ )fail 0$/.test(line)), 'node\'s closing lines are intact');
    assert.deepEqual(lines.slice(-2), [
      '# skipped: 2 suites (TEST_SERVER_URL is not set): test/runner/skipping-suites.fixture.ts (needs a server), test/runner/skipping-suites.fixture.ts (needs another server)',
      '# skipped: 1 test (cc is not installed): test/runner/skipping-suites.fixture.ts (needs a compiler)',
    ]);
  });

  it('runs every test file of the repository, in whatever folder (test/build/ was once left out)', async () => {
    const { stdout } = await run(process.execPath, [projectFile('scripts/run-tests.mjs'), '--list'], { cwd: projectFile('.') });
    const { stdout: tracked } = await run('git', ['ls-files', '--cached', '--others', '--exclude-standard', '*.test.ts'], { cwd: projectFile('.') });
    const listed = stdout.split('\n').filter(Boolean).sort();
    assert.deepEqual(listed, tracked.split('\n').filter(Boolean).sort());
    assert.ok(listed.includes('test/build/production-build.test.ts'));
  });

  it('when the files are listed tier by tier, then every test file of the repository is in exactly one tier', async () => {
    const list = async (...args: string[]) => (await run(process.execPath, [projectFile('scripts/run-tests.mjs'), '--list', ...args], { cwd: projectFile('.') })).stdout.split('\n').filter(Boolean);
    const all = await list();
    const tiers = await Promise.all(['unit', 'integration', 'system'].map((tier) => list('--tier', tier)));
    assert.deepEqual(tiers.flat().sort(), all);
    assert.equal(new Set(tiers.flat()).size, all.length, 'no file in two tiers');
    // One known file of each, so that a classifier putting everything in one tier fails here.
    assert.ok(tiers[0]!.includes('src/errors.test.ts'));
    assert.ok(tiers[1]!.includes('src/http/routes/login.test.ts'));
    assert.ok(tiers[2]!.includes('test/examples/examples.test.ts'));
  });

  it('when a test reaches a process or a database through the test support, then it leaves the unit tier for the system or the integration tier', async () => {
    const root = mkdtempSync(join(tmpdir(), 'tiers-'));
    const files: Record<string, string> = {
      // A type alone loads nothing.
      'src/a/plain.test.ts': "import assert from 'node:assert/strict';\nimport type { Handle } from '../../test/support/test-databases.js';\n",
      'src/a/gateway.test.ts': "import {\n  startTestGateway,\n} from '../../test/support/test-gateway.js';\n",
      'src/a/redis.test.ts': "const { Redis } = await import('ioredis');\n",
      'src/a/process.test.ts': "import { startProcess } from '../../test/support/process-harness.js';\n",
      'test/x/plain.test.ts': "import assert from 'node:assert/strict';\n",
      'test/support/test-gateway.ts': "export { open } from './test-databases.js';\n",
      'test/support/test-databases.ts': 'export const open = () => {};\n',
      'test/support/process-harness.ts': "import { spawn } from 'node:child_process';\nexport const startProcess = spawn;\n",
    };
    try {
      for (const [path, text] of Object.entries(files)) {
        mkdirSync(dirname(join(root, path)), { recursive: true });
        writeFileSync(join(root, path), text);
      }
      const list = async (tier: string) => (await run(process.execPath, [projectFile('scripts/run-tests.mjs'), '--list', '--tier', tier], { cwd: root })).stdout.split('\n').filter(Boolean);
      assert.deepEqual(await list('unit'), ['src/a/plain.test.ts']);
      // Under test/ is never unit: unit tests sit beside the code.
      assert.deepEqual(await list('integration'), ['src/a/gateway.test.ts', 'src/a/redis.test.ts', 'test/x/plain.test.ts']);
      assert.deepEqual(await list('system'), ['src/a/process.test.ts']);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('when an earlier tier fails, then the later tiers still run, each ends with node\'s closing lines, the run fails at the end, and its last line names the failed test and its error', async () => {
    const root = mkdtempSync(join(tmpdir(), 'tiers-'));
    try {
      const files: Record<string, string> = {
        'src/a/failing.test.ts': "import assert from 'node:assert/strict';\nimport { it } from 'node:test';\nit('fails', () => assert.equal(1, 2));\n",
        'test/x/passing.test.ts': "import { it } from 'node:test';\nit('passes', () => {});\nit('is skipped', { skip: 'not here' }, () => {});\n",
      };
      const failure = await failingRun(root, files);
      assert.equal(failure.code, 1);
      const lines = failure.stdout.split('\n');
      assert.deepEqual(lines.filter((line) => /^# (tier|fail \d|pass \d)/.test(line)).map((line) => line.replace(/\d+ at a time/, 'N at a time')), [
        '# tier unit: 1 file, N at a time',
        '# pass 0',
        '# fail 1',
        '# tier integration: 1 file, N at a time',
        '# pass 1',
        '# fail 0',
        '# tier system: no test files',
      ]);
      assert.ok(lines.includes('# skipped: 1 test (not here): test/x/passing.test.ts (is skipped)'), failure.stdout);
      const failed = '# failed: src/a/failing.test.ts (fails): Expected values to be strictly equal:';
      // Named after its tier's closing lines, and again as the run's last line: what a log's tail shows.
      const integration = lines.findIndex((line) => line.startsWith('# tier integration'));
      assert.ok(lines.indexOf(failed) > lines.indexOf('# fail 1') && lines.indexOf(failed) < integration, failure.stdout);
      assert.match(failure.stdout, /\n# all tiers: tests 3, pass 1, fail 1, skipped 1 \(unit 0\/1 in \d+ s FAILED; integration 1\/2 in \d+ s\)\n# failed: src\/a\/failing\.test\.ts \(fails\): Expected values to be strictly equal:\n$/);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it('when unit files share a process and one cannot be loaded, then it fails as a test named after it, and the files after it in that process still run', async () => {
    const root = mkdtempSync(join(tmpdir(), 'shared-process-'));
    try {
      // Two processes for three files: the first and the third share one.
      const files: Record<string, string> = {
        'src/a/broken.test.ts': "import { it } from 'node:test';\nif (process.env) throw new Error('broken at load');\nit('never registered', () => {});\n",
        'src/b/middle.test.ts': "import { it } from 'node:test';\nit('middle passes', () => {});\n",
        'src/c/later.test.ts': "import { it } from 'node:test';\nit('later passes', () => {});\n",
      };
      const failure = await failingRun(root, files, ['--tier', 'unit']);
      assert.equal(failure.code, 1);
      assert.match(failure.stdout, /^# tests 3$/m, failure.stdout);
      assert.match(failure.stdout, /^# pass 2$/m);
      assert.ok(failure.stdout.trimEnd().endsWith('\n# failed: src/a/broken.test.ts (loading it): broken at load'), failure.stdout);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
