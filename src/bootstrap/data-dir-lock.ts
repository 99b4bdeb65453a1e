import { randomUUID } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';

/**
 * How long a start waits for the process holding DATA_DIR to go (DATA_DIR_LOCK_WAIT_MS): a gateway killed a
 * moment ago is still alive for a second or two (its memory returned, its parent told), and a supervisor that
 * restarts it at once must not be turned away and run out of restarts. A process still alive after this long
 * is running, and the start is refused.
 */
export const DATA_DIR_LOCK_WAIT_MS = 15_000;

/** How often a waiting start looks again whether the holder is gone. */
const POLL_MS = 50;

export interface DataDirLockOptions {
  /** How long to wait for a live holder to go; DATA_DIR_LOCK_WAIT_MS by default. */
  waitMs?: number;
  /** Told once when the start has to wait, with the holder's pid. */
  onWait?: (pid: number) => void;
}

/**
 * PGlite is a single-process database: two gateways on one DATA_DIR would corrupt it. The first to start holds
 * DATA_DIR/gateway.pid, which names its pid and a random id. The file is created whole and at once (written
 * under a name of its own, then hard-linked to gateway.pid, which fails if that exists), so of any number of
 * processes starting together exactly one gets it. A file whose process is gone (a crash) is taken over; so
 * that two takeovers of one stale file cannot both win, only the process that creates its takeover marker
 * (`gateway.pid.takeover-<stale id>`, again created exclusively) may remove it, and only after reading it
 * still names the stale holder. A marker left by a taker that crashed is itself stale and taken over the
 * same way. A holder still alive is waited for, up to `waitMs`.
 */
export async function lockDataDir(dataDir: string, options: DataDirLockOptions = {}): Promise<() => void> {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  const file = resolve(dataDir, 'gateway.pid');
  if (heldHere.has(file)) throw new Error(`DATA_DIR ${dataDir} is in use by this process already`);
  const deadline = Date.now() + (options.waitMs ?? DATA_DIR_LOCK_WAIT_MS);
  let told = false;
  for (;;) {
    const outcome = acquire(file);
    if (outcome.kind === 'held') break;
    if (Date.now() >= deadline) throw new Error(`DATA_DIR ${dataDir} is in use by process ${outcome.pid}; stop it first or set another DATA_DIR`);
    if (!told) options.onWait?.(outcome.pid);
    told = true;
    await new Promise((wake) => setTimeout(wake, POLL_MS));
  }
  heldHere.add(file);
  const mine = readHolder(file);
  return () => {
    heldHere.delete(file);
    // Only our own file: never one another process wrote after ours was taken from us.
    if (mine !== undefined && readHolder(file)?.id === mine.id) rmSync(file, { force: true });
  };
}

/** Locks this process holds. */
const heldHere = new Set<string>();

interface Holder {
  pid: number;
  id: string;
}

type Attempt = { kind: 'held' } | { kind: 'busy'; pid: number };

/**
 * Creates `file` naming this process, exclusively; takes it over if its holder is gone. Busy: the live holder
 * of `file` (or of a takeover of it under way).
 */
function acquire(file: string): Attempt {
  const me: Holder = { pid: process.pid, id: randomUUID() };
  for (;;) {
    if (createExclusively(file, me)) return { kind: 'held' };
    const holder = readHolder(file);
    if (holder === undefined) continue; // gone meanwhile (released, or being taken over): try again
    // Our own pid in a file we do not hold is a previous life's (a container restarted gives its process the
    // same pid); acquire runs without yielding, so no other attempt of this process is half-way through.
    if (holder.pid !== process.pid && isAlive(holder.pid)) return { kind: 'busy', pid: holder.pid };
    const marker = `${file}.takeover-${holder.id}`;
    const takeover = acquire(marker);
    if (takeover.kind === 'busy') return takeover;
    try {
      // Under the marker nobody else may remove a file naming this stale holder: if it still does, it is ours to remove.
      if (readHolder(file)?.id === holder.id) unlinkSync(file);
    } finally {
      rmSync(marker, { force: true });
    }
  }
}

/** Writes `holder` under a name of its own, then links it to `file`: all of it or nothing, and only if `file` is not there. */
function createExclusively(file: string, holder: Holder): boolean {
  const draft = `${file}.${holder.id}.new`;
  writeFileSync(draft, `${holder.pid} ${holder.id}`, { flag: 'wx', mode: 0o600 });
  try {
    linkSync(draft, file);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    rmSync(draft, { force: true });
  }
}

/** The holder a lock file names; undefined when it is gone. A file of an older release names a pid alone. */
function readHolder(file: string): Holder | undefined {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  const [pid, id] = text.trim().split(' ');
  // An unreadable pid names no live process: the file is stale. Its id is then its content, unique enough.
  return { pid: Number.isInteger(Number(pid)) && Number(pid) > 0 ? Number(pid) : 0, id: id ?? `pid-${text.trim().replace(/[^0-9A-Za-z-]/g, '') || 'none'}` };
}

function isAlive(pid: number): boolean {
  if (pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
