import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { Socket } from 'node:net';
import { projectFile } from '../../src/project-root.js';
import { canListen, freePort } from './free-port.js';
import { nodeEntry } from './node-entry.js';
import { waitFor } from './wait-for.js';

/** The node options of package.json's `start` script (`node <options> dist/src/main.js`). */
function npmStartNodeOptions(): string[] {
  const start = (JSON.parse(readFileSync(projectFile('package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start;
  return start.split(/\s+/).filter((word) => word.startsWith('--'));
}

/**
 * Every gateway process still running, killed when this process exits. They do not keep it alive (they are
 * unref'd): a suite whose `before` failed half-way must not leave the test runner waiting for ever.
 */
const running = new Set<ChildProcess>();
process.once('exit', () => {
  for (const child of running) child.kill('SIGKILL');
});

/** How long a gateway process may take to answer /readyz 200. */
const START_LIMIT_MS = 150_000;

/** The ports were taken between choosing them and listening: starting again elsewhere is safe. */
class PortTakenError extends Error {}

/** A gateway running as its own process through the real entry point, src/main.ts. */
export interface GatewayProcess {
  process: ChildProcess;
  port: number;
  adminPort: number;
  base: string;
  admin: string;
  /** Everything the process wrote so far: pino's JSON lines (stdout, warnings and errors at LOG_LEVEL=warn) and stderr. */
  output(): string;
  /** What it wrote to stdout alone: whole lines, where `output()` may interleave a line with stderr's. */
  stdout(): string;
  /** What it wrote to stderr alone: Node's own reports (a crash, a warning). */
  stderr(): string;
  /** Resolves once the process is gone; made at spawn, so no exit is missed however late it is awaited. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export interface GatewayProcessOptions {
  /** Where to listen: a restarted instance comes back where the load balancer expects it. Free ports if not given. */
  port?: number;
  adminPort?: number;
  /**
   * Whether to copy the output to this process's stderr as it comes (the default), so that a failing test shows
   * it. A test that expects errors in the log and reports them itself turns it off.
   */
  echo?: boolean;
  /**
   * Run the production build (`dist/src/main.js`) with `npm start`'s node options, as the benchmarks measure it;
   * a path runs that build of main.js instead (a profile of another version). Without it, the process runs
   * src/main.ts through `nodeEntry`: the build when it is up to date, the sources through tsx otherwise.
   */
  build?: boolean | string;
  /** Told each piece of output as it comes, before the process is ready: a test that acts on what a start says. */
  onOutput?: (chunk: string) => void;
  /** Options for node itself (`--cpu-prof`, ...). */
  nodeArgs?: string[];
  /** Whether the process inherits this one's environment (the default); the soak gives it its settings only, no REDIS_URL from the caller. */
  inheritEnv?: boolean;
}

/**
 * Starts `src/main.ts` with `env` (on top of this process's environment, NODE_ENV=production, loopback
 * listeners and LOG_LEVEL=warn) and resolves once `/readyz` answers 200.
 */
export async function startGatewayProcess(env: Record<string, string>, options: GatewayProcessOptions = {}): Promise<GatewayProcess> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await startOnce(env, options);
    } catch (error) {
      if (!(error instanceof PortTakenError) || attempt >= 5) throw error;
      // Given ports were ours a moment ago (a restart): whoever took them may let go soon. (Ports picked here
      // are picked afresh on the next attempt.)
      const given = [options.port, options.adminPort].filter((port) => port !== undefined);
      await waitFor(async () => (await Promise.all(given.map(canListen))).every(Boolean), { timeout: 5_000, interval: 100, message: `ports ${given.join(', ')} to be free again` }).catch(() => {});
    }
  }
}

async function startOnce(env: Record<string, string>, options: GatewayProcessOptions): Promise<GatewayProcess> {
  const port = options.port ?? (await freePort());
  const adminPort = options.adminPort ?? (await freePort());
  const main = typeof options.build === 'string' ? [options.build] : options.build ? [projectFile('dist/src/main.js')] : nodeEntry('src/main.ts');
  // A production build runs with `npm start`'s node options, so that the benchmarks measure what runs in production.
  const startOptions = options.build ? npmStartNodeOptions() : [];
  const entry = [...startOptions, ...(options.nodeArgs ?? []), ...main];
  const inherited = options.inheritEnv === false ? { PATH: process.env.PATH ?? '' } : process.env;
  const child = spawn(process.execPath, entry, {
    env: { ...inherited, NODE_ENV: 'production', ALLOW_EMBEDDED_DATABASE: 'true', PUBLIC_URL: `http://127.0.0.1:${port}`, HOST: '127.0.0.1', ADMIN_HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env, PORT: String(port), ADMIN_PORT: String(adminPort) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child);
  child.unref();
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => {
      running.delete(child);
      resolve({ code, signal });
    }),
  );
  const written = { stdout: '', stderr: '', both: '' };
  for (const name of ['stdout', 'stderr'] as const) {
    (child[name] as unknown as Socket).unref();
    child[name].setEncoding('utf8').on('data', (chunk: string) => {
      written[name] += chunk;
      written.both += chunk;
      if (options.echo ?? true) process.stderr.write(chunk);
      options.onOutput?.(chunk);
    });
  }
  const output = () => written.both;
  const base = `http://127.0.0.1:${port}`;
  const hasExited = () => child.exitCode !== null;
  // A bound, not an expectation: a start takes 2-5 s, but on two cores running other suites' processes too,
  // a start through tsx compiling the sources has been seen to take over a minute.
  await waitFor(async () => hasExited() || (await fetch(`${base}/readyz`).then((response) => response.ok, () => false)), { timeout: START_LIMIT_MS, interval: 100 }).catch(() => {
    child.kill('SIGKILL');
    throw new Error(`gateway process not ready after ${START_LIMIT_MS / 1000} s: ${output()}`);
  });
  if (hasExited()) {
    if (output().includes('EADDRINUSE')) throw new PortTakenError(`port ${port} or ${adminPort} was taken`);
    throw new Error(`gateway process exited with ${child.exitCode}: ${output()}`);
  }
  return {
    process: child,
    port,
    adminPort,
    base,
    admin: `http://127.0.0.1:${adminPort}`,
    output,
    stdout: () => written.stdout,
    stderr: () => written.stderr,
    exited,
  };
}

/**
 * Sends `signal` (SIGTERM: a graceful shutdown; SIGKILL: no questions, for clean-up after a failure) unless the
 * process is gone already, and resolves with the exit code once it is (null when a signal ended it).
 */
export async function stopGatewayProcess(instance: GatewayProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
  const { process: child } = instance;
  // Waiting for the exit must keep this process alive, which the unref'd child alone does not.
  child.ref();
  if (child.exitCode === null && child.signalCode === null) child.kill(signal);
  return (await instance.exited).code;
}

/**
 * Starts several gateway processes at once; if one fails to start, the others are stopped before the error is
 * thrown, so that a failed `before` leaves nothing running.
 */
export async function startGatewayProcesses(count: number, env: Record<string, string>): Promise<GatewayProcess[]> {
  const started = await Promise.allSettled(Array.from({ length: count }, () => startGatewayProcess(env)));
  const failure = started.find((result) => result.status === 'rejected');
  if (failure) {
    await Promise.all(started.flatMap((result) => (result.status === 'fulfilled' ? [stopGatewayProcess(result.value, 'SIGKILL')] : [])));
    throw failure.reason;
  }
  return started.map((result) => (result as PromiseFulfilledResult<GatewayProcess>).value);
}
