import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * PGlite is a single-process database: two gateways on one DATA_DIR would corrupt it. The first to start
 * writes its pid into DATA_DIR/gateway.pid; another refuses to start while that process is alive. A pid
 * file left by a crashed process is taken over.
 */
export function lockDataDir(dataDir: string): () => void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = resolve(dataDir, 'gateway.pid');
  if (heldHere.has(file)) throw new Error(`DATA_DIR ${dataDir} is in use by this process already`);
  try {
    writeFileSync(file, String(process.pid), { flag: 'wx', mode: 0o600 });
  } catch {
    const owner = Number(readFileSync(file, 'utf8'));
    if (Number.isInteger(owner) && owner !== process.pid && isAlive(owner)) {
      throw new Error(`DATA_DIR ${dataDir} is in use by process ${owner}; stop it first or set another DATA_DIR`);
    }
    writeFileSync(file, String(process.pid), { mode: 0o600 });
  }
  heldHere.add(file);
  return () => {
    heldHere.delete(file);
    rmSync(file, { force: true });
  };
}

/** Locks this process holds: a pid file naming our own pid is only ours if we took it. */
const heldHere = new Set<string>();

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
