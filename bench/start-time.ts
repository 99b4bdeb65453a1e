/**
 * `node --import tsx bench/start-time.ts [restarts]`: how long `npm start` takes from the command to the ready
 * banner, on the embedded database in a new DATA_DIR: the first start (which also creates the database, its
 * keys and the demo partner), then restarts without changes (default 5), each stopped with SIGTERM before the
 * next. The build must be there already (`npm run build`): a restart that had to build says so and fails.
 * Prints each time and the median of the restarts, with the CPU time the start's processes (npm, the build
 * check, the gateway) used until the banner: a figure other work on the machine hardly moves, where the time
 * waited for a core does. docs/performance.md quotes them.
 */
import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectFile } from '../src/project-root.js';
import { freePort } from '../test/support/free-port.js';

const restarts = Number(process.argv[2] ?? 5);
const dataDir = mkdtempSync(join(tmpdir(), 'start-time-'));
const env: Record<string, string | undefined> = { ...process.env, NODE_ENV: 'development', DATA_DIR: dataDir, PORT: String(await freePort()), ADMIN_PORT: String(await freePort()) };
for (const key of Object.keys(env)) if (key.startsWith('npm_')) delete env[key];

/** CPU seconds (user + system) used so far by the processes of process group `group` still running, and their children waited for. */
function groupCpuSeconds(group: number): number {
  let ticks = 0;
  for (const pid of readdirSync('/proc').filter((entry) => /^\d+$/.test(entry))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      // pgrp is the 5th field, utime, stime, cutime, cstime the 14th to 17th (counted from 1, the pid).
      if (Number(fields[2]) === group) ticks += Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
    } catch {
      // Gone meanwhile.
    }
  }
  return ticks / 100;
}

/** One `npm start`: seconds from spawning it to the banner's closing line and the CPU seconds used, then a SIGTERM and its exit. */
async function start(name: string): Promise<{ seconds: number; cpu: number }> {
  const log = join(dataDir, `${name}.log`);
  const fd = openSync(log, 'w');
  const began = performance.now();
  const child = spawn('npm', ['start'], { cwd: projectFile('.'), env, stdio: ['ignore', fd, fd], detached: true });
  closeSync(fd);
  const exited = new Promise((resolve) => child.once('exit', resolve));
  let seconds = 0;
  let cpu = 0;
  for (;;) {
    const text = readFileSync(log, 'utf8');
    if (/is ready[^]*\n={78}\n/.test(text)) {
      seconds = (performance.now() - began) / 1000;
      cpu = groupCpuSeconds(child.pid!);
      if (/^Building \(/m.test(text)) throw new Error(`${name} built first:\n${text}`);
      break;
    }
    if (child.exitCode !== null) throw new Error(`${name} ended:\n${text}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  process.kill(-child.pid!, 'SIGTERM');
  await exited;
  return { seconds, cpu };
}

try {
  const load = loadavg()[0]!.toFixed(1);
  const first = await start('first');
  const runs: Array<{ seconds: number; cpu: number }> = [];
  for (let i = 0; i < restarts; i++) runs.push(await start(`restart-${i + 1}`));
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const list = (values: number[]) => values.map((value) => value.toFixed(2)).join(', ');
  process.stdout.write(`npm start to the ready banner (load average ${load} at the start, ${loadavg()[0]!.toFixed(1)} at the end, ${process.version}):\n`);
  process.stdout.write(`  first start ${first.seconds.toFixed(2)} s (CPU ${first.cpu.toFixed(2)} s)\n`);
  process.stdout.write(`  restarts ${list(runs.map((run) => run.seconds))} s: median ${median(runs.map((run) => run.seconds)).toFixed(2)} s\n`);
  process.stdout.write(`  CPU per restart ${list(runs.map((run) => run.cpu))} s: median ${median(runs.map((run) => run.cpu)).toFixed(2)} s\n`);
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
