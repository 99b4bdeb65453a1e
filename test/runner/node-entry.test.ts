import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { describe, it } from 'node:test';
import { projectFile } from '../../src/project-root.js';
import { buildIsUpToDate, compiledFile } from '../support/node-entry.js';

describe('the entry a system test starts a process with (test/support/node-entry.ts)', () => {
  it('when a source is the gateway\'s or a package\'s, then its compiled file is the one the build writes', { skip: buildIsUpToDate() ? false : 'the build is not up to date (npm run build)' }, () => {
    for (const source of ['src/main.ts', 'src/cli/main.ts', 'packages/client/src/cli/main.ts']) {
      assert.ok(existsSync(projectFile(source)), source);
      assert.ok(existsSync(projectFile(compiledFile(source))), `${compiledFile(source)} is in the build`);
    }
  });

  it('when a file is not a source the build compiles, then it says so rather than run something else', () => {
    assert.throws(() => compiledFile('test/support/data-dir-lock-contender.ts'), /not a source the build compiles/);
  });
});
