import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import { connect } from 'node:net';
import { freePort } from './free-port.js';
import { waitFor } from './wait-for.js';

const REDIS_SERVER = '/usr/bin/redis-server';

/**
 * A Redis server of a test's own on a free port, without persistence, that the test may kill and start again
 * on the same port to play an outage. The shared TEST_REDIS_URL server must never be stopped: other suites
 * use it in parallel.
 */
export interface RedisServer {
  port: number;
  url: string;
  /** Starts the server and waits until it answers PING. */
  start(): Promise<void>;
  /** Kills the server (SIGKILL: every connection drops at once) and waits until it is gone. */
  kill(): Promise<void>;
}

/** Why a Redis server of a test's own cannot run here, or undefined when it can. */
export function redisServerUnavailable(): string | undefined {
  return existsSync(REDIS_SERVER) ? undefined : `${REDIS_SERVER} is missing (apt-get install redis-server)`;
}

export async function createRedisServer(): Promise<RedisServer> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const server: RedisServer = {
    port,
    url: `redis://127.0.0.1:${port}`,
    async start() {
      child = spawn(REDIS_SERVER, ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no'], { stdio: ['ignore', 'ignore', 'inherit'] });
      child.unref();
      const started = child;
      await waitFor(async () => started.exitCode !== null || (await answersPing(port)), { message: 'redis-server to answer PING' });
      if (started.exitCode !== null) throw new Error(`redis-server exited with ${started.exitCode}`);
    },
    async kill() {
      const running = child;
      child = undefined;
      if (!running || running.exitCode !== null || running.signalCode !== null) return;
      // Waiting for the exit must keep the event loop alive, which the unref'd child alone does not.
      running.ref();
      await new Promise((resolve) => {
        running.once('exit', resolve);
        running.kill('SIGKILL');
      });
    },
  };
  // Killed with the test process, however its suite ends.
  process.once('exit', () => child?.kill('SIGKILL'));
  await server.start();
  return server;
}

function answersPing(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.setTimeout(500);
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => {
      socket.destroy();
      resolve(String(data).startsWith('+PONG'));
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}
