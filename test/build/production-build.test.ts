import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { relative } from 'node:path';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';
import { projectFile } from '../../src/project-root.js';

describe('the production build', () => {
  it('compiles no test code into dist/: nothing under test/ and no *.test.ts', async () => {
    const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');
    const { stdout } = await promisify(execFile)(process.execPath, [tsc, '-p', projectFile('tsconfig.build.json'), '--listFilesOnly'], { maxBuffer: 16 * 1024 * 1024 });
    const ours = stdout
      .split('\n')
      .filter((file) => file.trim() !== '' && !file.includes('/node_modules/'))
      .map((file) => relative(projectFile('.'), file.trim()));
    assert.ok(ours.includes('src/main.ts'), 'the build compiles the gateway');
    assert.deepEqual(ours.filter((file) => file.startsWith('test/') || file.endsWith('.test.ts')), []);
  });
});
