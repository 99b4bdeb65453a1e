import { spawn, type ChildProcess } from 'node:child_process';
import { projectFile } from '../project-root.js';
import { freePort } from './free-port.js';

/** A gateway running as its own process through the real entry point, src/main.ts. */
export interface GatewayProcess {
  process: ChildProcess;
  port: number;
  adminPort: number;
  base: string;
  admin: string;
  /** Everything the process wrote so far: pino's JSON lines (stdout, warnings and errors at LOG_LEVEL=warn) and stderr. */
  output(): string;
}

/**
 * Starts `src/main.ts` with `env` (on top of this process's environment, NODE_ENV=production, loopback
 * listeners and LOG_LEVEL=warn) and resolves once `/readyz` answers 200. Given `ports`, it listens there:
 * a restarted instance comes back where the load balancer expects it.
 */
export async function startGatewayProcess(env: Record<string, string>, ports?: { port: number; adminPort: number }): Promise<GatewayProcess> {
  const port = ports?.port ?? (await freePort());
  const adminPort = ports?.adminPort ?? (await freePort());
  const child = spawn(process.execPath, ['--import', 'tsx', projectFile('src/main.ts')], {
    env: { ...process.env, NODE_ENV: 'production', HOST: '127.0.0.1', ADMIN_HOST: '127.0.0.1', LOG_LEVEL: 'warn', ...env, PORT: String(port), ADMIN_PORT: String(adminPort) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  for (const stream of [child.stdout, child.stderr]) {
    stream?.on('data', (chunk) => {
      output += String(chunk);
      process.stderr.write(chunk);
    });
  }
  const base = `http://127.0.0.1:${port}`;
  for (let attempt = 0; ; attempt++) {
    if (child.exitCode !== null) throw new Error(`gateway process exited with ${child.exitCode}: ${output}`);
    if (await fetch(`${base}/readyz`).then((response) => response.ok, () => false)) break;
    if (attempt > 300) {
      child.kill('SIGKILL');
      throw new Error(`gateway process not ready after 30 s: ${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { process: child, port, adminPort, base, admin: `http://127.0.0.1:${adminPort}`, output: () => output };
}

/** Sends `signal` (SIGTERM: a graceful shutdown) and resolves with the exit code once the process is gone. */
export async function stopGatewayProcess(instance: GatewayProcess, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
  if (instance.process.exitCode !== null) return instance.process.exitCode;
  return new Promise((resolve) => {
    instance.process.once('exit', (code) => resolve(code));
    instance.process.kill(signal);
  });
}
