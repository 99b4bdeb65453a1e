import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { startGatewayProcess, stopGatewayProcess, type GatewayProcess } from '../support/gateway-process.js';

// Issue 33, finding 7: a SIGKILLed gateway on the embedded database takes a second or more to disappear, and a
// gateway started meanwhile (a supervisor restarting at once) exited with "DATA_DIR … is in use by process N".
// It now waits for the previous process to go (up to DATA_DIR_LOCK_WAIT_MS), then starts.

describe('a gateway on the embedded database started while the previous one is still there', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'gateway-restart-'));
  const env = { DATA_DIR: dataDir, ADMIN_TOKEN: randomBytes(32).toString('hex'), MASTER_KEY: randomBytes(32).toString('hex') };
  const started: GatewayProcess[] = [];
  after(async () => {
    await Promise.all(started.map((gateway) => stopGatewayProcess(gateway, 'SIGKILL')));
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('when the first is SIGKILLed and the next started at once, then the next starts', async () => {
    const first = await startGatewayProcess(env);
    started.push(first);
    first.process.kill('SIGKILL');
    const second = await startGatewayProcess(env, { port: first.port, adminPort: first.adminPort });
    started.push(second);
    assert.equal((await first.exited).signal, 'SIGKILL');
    const admin = await fetch(`${second.admin}/admin/v1/partners`, { headers: { authorization: `Bearer ${env.ADMIN_TOKEN}` } });
    assert.equal(admin.status, 200, 'the same data directory, opened by the second');
  });

  it('when the previous one is still alive as the next reaches the lock (a kill still being carried out), then the next waits, and starts once it is gone', async () => {
    const first = started.at(-1)!;
    // Stopped, the first stays alive for as long as the test needs: what a process taking its time to exit looks like.
    first.process.kill('SIGSTOP');
    let waiting: () => void = () => {};
    const waited = new Promise<void>((resolve) => (waiting = resolve));
    const starting = startGatewayProcess(env, { echo: false, onOutput: (chunk) => chunk.includes('waiting for it to exit') && waiting() });
    await Promise.race([waited, starting]);
    first.process.kill('SIGKILL');
    const next = await starting;
    started.push(next);
    assert.equal((await first.exited).signal, 'SIGKILL');
    assert.match(next.output(), new RegExp(`"pid":${first.process.pid}`), 'it said whom it waited for');
    const admin = await fetch(`${next.admin}/admin/v1/partners`, { headers: { authorization: `Bearer ${env.ADMIN_TOKEN}` } });
    assert.equal(admin.status, 200);
  });
});
