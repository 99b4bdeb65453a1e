import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';
import { projectFile } from '../../src/project-root.js';

const run = promisify(execFile);

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
});
