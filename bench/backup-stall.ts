/**
 * `node --import tsx bench/backup-stall.ts`: how long a backup of the embedded database holds the serving thread.
 * A database on disk (DATA_DIR) is filled to about 110 MB, then backed up twice in this process, each while a 5 ms
 * timer measures the longest gap between its ticks: once as the gateway does (backupPglite: async reads, gzip on
 * the thread pool) and once with PGlite's own `dumpDataDir('gzip')`, the way it was done before, as the ceiling.
 * Prints both gaps, their ratio and the CPU each took; fails when the gateway's gap is over 100 ms (the project's
 * bound for work on the serving thread) or the archive does not hold the rows.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'kysely';
import { backupPglite, openDatabase } from '../src/db/database.js';

const MAX_GAP_MS = 100;
const ROWS = 100_000;
const workDir = mkdtempSync(join(tmpdir(), 'backup-stall-'));
process.on('exit', () => rmSync(workDir, { recursive: true, force: true }));

const handle = await openDatabase({ dataDir: workDir });
await sql`create table filler (id serial primary key, body text)`.execute(handle.db);
await sql`insert into filler (body) select repeat(md5(random()::text), 30) from generate_series(1, ${ROWS})`.execute(handle.db);
const size = Number((await sql<{ size: string }>`select pg_database_size(current_database()) as size`.execute(handle.db)).rows[0]!.size);

/** The longest gap between 5 ms ticks while `work` runs, its wall time and its CPU. */
async function measure<T>(work: () => Promise<T>): Promise<{ result: T; gapMs: number; wallMs: number; cpuMs: number }> {
  let last = performance.now();
  let gapMs = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    gapMs = Math.max(gapMs, now - last);
    last = now;
  }, 5);
  const cpu = process.cpuUsage();
  const started = performance.now();
  const result = await work();
  const wallMs = performance.now() - started;
  gapMs = Math.max(gapMs, performance.now() - last);
  clearInterval(timer);
  const used = process.cpuUsage(cpu);
  return { result, gapMs, wallMs, cpuMs: (used.user + used.system) / 1000 };
}

const gateway = await measure(async () => (await backupPglite(handle))!);
// PGlite's own packing of the same files: a copy opened from the gateway's archive (which also checks it restores).
const reference = new PGlite(join(workDir, 'pglite-copy'), { loadDataDir: gateway.result });
await reference.waitReady;
const pglite = await measure(() => reference.dumpDataDir('gzip'));
const restored = new PGlite({ loadDataDir: gateway.result });
const rows = (await restored.query<{ n: number }>('select count(*)::int as n from filler')).rows[0]!.n;
await Promise.all([restored.close(), reference.close(), handle.close()]);

console.log(`backup of a ${(size / 1e6).toFixed(0)} MB embedded database (on disk):`);
console.log(`  gateway (backupPglite):     longest serving-thread gap ${gateway.gapMs.toFixed(0)} ms; ${gateway.wallMs.toFixed(0)} ms, CPU ${gateway.cpuMs.toFixed(0)} ms; ${(gateway.result.size / 1e6).toFixed(1)} MB`);
console.log(`  PGlite dumpDataDir('gzip'): longest gap ${pglite.gapMs.toFixed(0)} ms; ${pglite.wallMs.toFixed(0)} ms, CPU ${pglite.cpuMs.toFixed(0)} ms; ${(pglite.result.size / 1e6).toFixed(1)} MB`);
console.log(`  ratio of longest gaps ${(gateway.gapMs / pglite.gapMs).toFixed(2)}; ceiling ${MAX_GAP_MS} ms; restored rows ${rows} of ${ROWS}`);
if (gateway.gapMs > MAX_GAP_MS || rows !== ROWS) {
  console.log('FAILED: the backup held the serving thread too long, or lost rows');
  process.exit(1);
}
