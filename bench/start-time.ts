/**
 * `node --import tsx bench/start-time.ts [restarts]`: how long `npm start` takes from the command to the ready
 * banner, on the embedded database in a new DATA_DIR: the first start (which also creates the database, its
 * keys and the demo partner), then restarts without changes (default 5), each stopped with SIGTERM before the
 * next. The build must be there already (`npm run build`): a restart that had to build says so and fails.
 * Prints each time and the median of the restarts; the README and docs/performance.md quote it.
 */
import { spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { projectFile } from '../src/project-root.js';
import { freePort } from '../test/support/free-port.js';

const restarts = Number(process.argv[2] ?? 5);
const dataDir = mkdtempSync(join(tmpdir(), 'start-time-'));
const env: Record<string, string | undefined> = { ...process.env, NODE_ENV: 'development', DATA_DIR: dataDir, PORT: String(await freePort()), ADMIN_PORT: String(await freePort()) };
for (const key of Object.keys(env)) if (key.startsWith('npm_')) delete env[key];

/** One `npm start`: seconds from spawning it to the banner's closing line, then a SIGTERM and its exit. */
async function start(name: string): Promise<number> {
  const log = join(dataDir, `${name}.log`);
  const fd = openSync(log, 'w');
  const began = performance.now();
  const child = spawn('npm', ['start'], { cwd: projectFile('.'), env, stdio: ['ignore', fd, fd], detached: true });
  closeSync(fd);
  const exited = new Promise((resolve) => child.once('exit', resolve));
  let seconds = 0;
  for (;;) {
    const text = readFileSync(log, 'utf8');
    if (/is ready[^]*\n={78}\n/.test(text)) {
      seconds = (performance.now() - began) / 1000;
      if (/^Building \(/m.test(text)) throw new Error(`${name} built first:\n${text}`);
      break;
    }
    if (child.exitCode !== null) throw new Error(`${name} ended:\n${text}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  process.kill(-child.pid!, 'SIGTERM');
  await exited;
  return seconds;
}

try {
  const load = loadavg()[0]!.toFixed(1);
  const first = await start('first');
  const times: number[] = [];
  for (let i = 0; i < restarts; i++) times.push(await start(`restart-${i + 1}`));
  const median = [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)]!;
  process.stdout.write(`npm start to the ready banner (load average ${load} at the start, ${process.version}):\n`);
  process.stdout.write(`  first start ${first.toFixed(2)} s; restarts ${times.map((time) => time.toFixed(2)).join(', ')} s; median ${median.toFixed(2)} s\n`);
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
