import assert from 'node:assert/strict';
import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { startGatewayProcess, stopGatewayProcess } from '../support/gateway-process.js';

/** Every path under `root`, itself included, with its permission bits. */
function modes(root: string): Array<{ path: string; mode: number; directory: boolean }> {
  const stat = statSync(root);
  const here = [{ path: root, mode: stat.mode & 0o777, directory: stat.isDirectory() }];
  if (!stat.isDirectory()) return here;
  return [...here, ...readdirSync(root).flatMap((name) => modes(join(root, name)))];
}

// Finding 7 of issue 11: DATA_DIR was created 0755 and its files 0644, so the embedded database (every
// partner's argon2 hash) was readable by any local user; an exposed admin-token or master-key was used silently.
describe('secrets at rest on the embedded database (issue 11, finding 7)', () => {
  const parent = mkdtempSync(join(tmpdir(), 'gateway-secrets-'));
  const dataDir = join(parent, 'data');
  after(() => rmSync(parent, { recursive: true, force: true }));

  it('creates DATA_DIR 0700 and everything in it 0600 (directories 0700), generated secrets included', async () => {
    const gateway = await startGatewayProcess({ DATA_DIR: dataDir, LOG_LEVEL: 'warn' }, { echo: false });
    await stopGatewayProcess(gateway);
    const found = modes(dataDir);
    assert.ok(found.some((entry) => entry.path.endsWith('admin-token')) && found.some((entry) => entry.path.endsWith('master-key')));
    assert.ok(found.some((entry) => entry.path.includes('pglite') && !entry.directory), 'the database files are there');
    for (const entry of found) assert.equal(entry.mode & 0o077, 0, `${entry.path} is 0${entry.mode.toString(8)}`);
    assert.ok(!gateway.output().includes('readable by group or others'), 'nothing to warn about');
  });

  it('warns at start, naming the path, when DATA_DIR, admin-token or master-key is readable by group or others', async () => {
    chmodSync(dataDir, 0o755);
    chmodSync(join(dataDir, 'admin-token'), 0o644);
    chmodSync(join(dataDir, 'master-key'), 0o640);
    const gateway = await startGatewayProcess({ DATA_DIR: dataDir, LOG_LEVEL: 'warn' }, { echo: false });
    await stopGatewayProcess(gateway);
    const warnings = gateway.stdout().split('\n').filter((line) => line.includes('readable by group or others'));
    for (const [path, mode] of [[dataDir, '0755'], [join(dataDir, 'admin-token'), '0644'], [join(dataDir, 'master-key'), '0640']] as const) {
      assert.ok(warnings.some((line) => JSON.parse(line).path === path && JSON.parse(line).mode === mode), `${path}: ${warnings.join('\n')}`);
    }
  });
});
