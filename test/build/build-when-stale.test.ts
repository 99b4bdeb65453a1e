import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { projectFile } from '../../src/project-root.js';

describe("the build's start (scripts/build-when-stale.mjs --started)", () => {
  const root = mkdtempSync(join(tmpdir(), 'build-when-stale-'));
  after(() => rmSync(root, { recursive: true, force: true }));

  it('when a build starts, then compiled files whose source is gone are deleted, so that a renamed migration cannot run twice from a stale file, and the others stay for the incremental build', async () => {
    mkdirSync(join(root, 'scripts'));
    copyFileSync(projectFile('scripts/build-when-stale.mjs'), join(root, 'scripts/build-when-stale.mjs'));
    mkdirSync(join(root, 'src/db/migrations'), { recursive: true });
    writeFileSync(join(root, 'src/db/migrations/0025-renamed.ts'), 'export async function up() {}\n');
    mkdirSync(join(root, 'dist/src/db/migrations'), { recursive: true });
    for (const name of ['0024-renamed.js', '0024-renamed.js.map', '0024-renamed.d.ts', '0025-renamed.js', '0025-renamed.js.map', '0025-renamed.d.ts']) {
      writeFileSync(join(root, 'dist/src/db/migrations', name), '\n');
    }
    await promisify(execFile)(process.execPath, [join(root, 'scripts/build-when-stale.mjs'), '--started']);
    for (const name of ['0024-renamed.js', '0024-renamed.js.map', '0024-renamed.d.ts']) assert.equal(existsSync(join(root, 'dist/src/db/migrations', name)), false, `${name} is gone`);
    for (const name of ['0025-renamed.js', '0025-renamed.js.map', '0025-renamed.d.ts']) assert.ok(existsSync(join(root, 'dist/src/db/migrations', name)), `${name} stays`);
    assert.ok(existsSync(join(root, 'dist/.build-started')), 'the start noted');
  });
});
