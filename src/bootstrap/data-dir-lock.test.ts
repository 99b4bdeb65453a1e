import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { after, before, describe, it } from 'node:test';
import { projectFile } from '../project-root.js';
import { lockDataDir } from './data-dir-lock.js';

/** A pid no process has any more: one that ran and was reaped. */
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '']).pid!;
}

describe('the DATA_DIR lock', () => {
  const dirs: string[] = [];
  const fresh = () => {
    const dir = mkdtempSync(join(tmpdir(), 'gateway-lock-'));
    dirs.push(dir);
    return dir;
  };
  after(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it('when a gateway.pid names a process that is gone, then it is taken over, and released when done', async () => {
    const dir = fresh();
    writeFileSync(join(dir, 'gateway.pid'), String(deadPid()));
    const unlock = await lockDataDir(dir, { waitMs: 0 });
    assert.match(readFileSync(join(dir, 'gateway.pid'), 'utf8'), new RegExp(`^${process.pid} `));
    await assert.rejects(lockDataDir(dir, { waitMs: 0 }), /in use by this process already/);
    unlock();
    assert.deepEqual(readdirSync(dir), [], 'no lock, marker or draft left');
  });

  it('when a gateway.pid names this very pid but this process holds nothing (a container restarted), then it is taken over', async () => {
    const dir = fresh();
    writeFileSync(join(dir, 'gateway.pid'), String(process.pid));
    (await lockDataDir(dir, { waitMs: 0 }))();
  });

  it('when the holder is alive, then a start waits for it up to the bound, and proceeds once it is gone', async () => {
    const dir = fresh();
    const holder = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60_000)'], { stdio: 'ignore' });
    writeFileSync(join(dir, 'gateway.pid'), `${holder.pid} an-id-of-its-own`);
    await assert.rejects(lockDataDir(dir, { waitMs: 200 }), new RegExp(`in use by process ${holder.pid}`));
    const waited: number[] = [];
    const locking = lockDataDir(dir, { waitMs: 30_000, onWait: (pid) => waited.push(pid) });
    holder.kill('SIGKILL');
    const unlock = await locking;
    assert.deepEqual(waited, [holder.pid]);
    unlock();
  });

  describe('when many processes take over one stale lock at once', () => {
    const CONTENDERS = 6;
    let contenders: Array<{ child: ChildProcess; next(): Promise<string> }> = [];
    before(async () => {
      contenders = Array.from({ length: CONTENDERS }, () => {
        const child = spawn(process.execPath, ['--import', 'tsx', projectFile('test/support/data-dir-lock-contender.ts')], { stdio: ['pipe', 'pipe', 'inherit'] });
        const lines = createInterface({ input: child.stdout! })[Symbol.asyncIterator]();
        return { child, next: async () => String((await lines.next()).value) };
      });
    });
    after(() => {
      for (const { child } of contenders) child.kill('SIGKILL');
    });

    it('then exactly one of them gets it, every time of 20', async () => {
      const stale = deadPid();
      for (let round = 1; round <= 20; round++) {
        const dir = fresh();
        writeFileSync(join(dir, 'gateway.pid'), String(stale));
        for (const { child } of contenders) child.stdin!.write(`try ${dir}\n`);
        const answers = await Promise.all(contenders.map(({ next }) => next()));
        assert.equal(answers.filter((answer) => answer === 'won').length, 1, `round ${round}: ${answers.join(', ')}`);
        assert.equal(answers.filter((answer) => answer === 'lost').length, CONTENDERS - 1, `round ${round}: ${answers.join(', ')}`);
        for (const { child } of contenders) child.stdin!.write('release\n');
        await Promise.all(contenders.map(({ next }) => next()));
        assert.ok(!existsSync(join(dir, 'gateway.pid')), 'the winner let go');
      }
    });
  });
});
