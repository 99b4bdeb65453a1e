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

  it('when a build starts, then the compiled gateway of the last build is gone, so that a renamed migration cannot run twice from a stale file', async () => {
    mkdirSync(join(root, 'scripts'));
    copyFileSync(projectFile('scripts/build-when-stale.mjs'), join(root, 'scripts/build-when-stale.mjs'));
    mkdirSync(join(root, 'dist/src/db/migrations'), { recursive: true });
    writeFileSync(join(root, 'dist/src/db/migrations/0024-renamed-since.js'), 'export async function up() {}\n');
    mkdirSync(join(root, 'dist/console'), { recursive: true });
    writeFileSync(join(root, 'dist/console/index.html'), '<!doctype html>\n');
    await promisify(execFile)(process.execPath, [join(root, 'scripts/build-when-stale.mjs'), '--started']);
    assert.equal(existsSync(join(root, 'dist/src')), false, 'dist/src emptied');
    assert.ok(existsSync(join(root, 'dist/.build-started')), 'the start noted');
    assert.ok(existsSync(join(root, 'dist/console/index.html')), 'the console build is left to its own step');
  });
});
