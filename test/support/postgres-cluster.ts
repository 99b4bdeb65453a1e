import { execFile, execFileSync, spawn } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { freePort } from './free-port.js';
import { waitFor } from './wait-for.js';

const run = promisify(execFile);
const POSTGRESQL_ROOT = '/usr/lib/postgresql';
const TOOLS = ['initdb', 'pg_ctl', 'postgres'] as const;
/** $1 the test process, $2 the data directory, $3 the cluster's directory, $4 pg_ctl, $5 runuser or empty. */
const WATCHDOG = `
while kill -0 "$1" 2>/dev/null; do sleep 1; done
if [ -f "$2/postmaster.pid" ]; then
  if [ -n "$5" ]; then "$5" -u postgres -- "$4" -D "$2" stop -m immediate -w -s; else "$4" -D "$2" stop -m immediate -w -s; fi
fi
rm -rf "$3"
`;

/**
 * A PostgreSQL server of a test's own, in a temporary directory on a free port, that the test may stop and
 * start again (same port, same data) to play an outage. The shared TEST_DATABASE_URL server must never be
 * stopped: other suites run on it in parallel.
 */
export interface PostgresCluster {
  port: number;
  /** Connection string of the `postgres` database as the `postgres` superuser (trust authentication). */
  url: string;
  /** Starts the server and waits until it accepts connections. */
  start(): Promise<void>;
  /** Stops the server and waits until it is gone: `fast` ends every session, `immediate` kills the server. */
  stop(mode: 'fast' | 'immediate'): Promise<void>;
  /** Resolves with `Date.now()` of the first connection that gets an answer to a query (polling every 20 ms). */
  accepting(limitMs?: number): Promise<number>;
  /** The server's log, for failure messages. */
  log(): string;
  /** Stops the server if it runs and removes its directory; safe to call more than once. */
  destroy(): Promise<void>;
}

/** The bin directory of the newest PostgreSQL installed the Debian way, if it has all the tools needed. */
export function findPostgresBin(): string | undefined {
  let versions: number[];
  try {
    versions = readdirSync(POSTGRESQL_ROOT)
      .filter((name) => /^\d+$/.test(name))
      .map(Number)
      .sort((a, b) => b - a);
  } catch {
    return undefined;
  }
  for (const version of versions) {
    const bin = join(POSTGRESQL_ROOT, String(version), 'bin');
    if (TOOLS.every((tool) => existsSync(join(bin, tool)))) return bin;
  }
  return undefined;
}

/**
 * Why a cluster cannot be made here, or `undefined` when it can. PostgreSQL refuses to run as root, so as
 * root (this machine, CI) the server runs as the `postgres` user through runuser.
 */
export function postgresClusterUnavailable(): string | undefined {
  if (!findPostgresBin()) return `no PostgreSQL server binaries (${TOOLS.join(', ')}) under ${POSTGRESQL_ROOT}/*/bin`;
  if (process.getuid?.() === 0) {
    if (!runuser()) return 'running as root and runuser is missing';
    if (postgresUser() === undefined) return 'running as root and there is no postgres user to run the server as';
  }
  return undefined;
}

/** Creates a cluster (initdb, trust authentication, no fsync) and starts it. */
export async function createPostgresCluster(): Promise<PostgresCluster> {
  const bin = findPostgresBin();
  if (!bin) throw new Error(postgresClusterUnavailable());
  const asRoot = process.getuid?.() === 0;
  const owner = asRoot ? postgresUser() : undefined;
  const su = asRoot ? runuser() : undefined;
  if (asRoot && !(owner && su)) throw new Error(postgresClusterUnavailable());
  const directory = mkdtempSync(join(tmpdir(), 'pg-cluster-'));
  if (owner) chownSync(directory, owner.uid, owner.gid);
  const dataDir = join(directory, 'data');
  const logFile = join(directory, 'postgres.log');
  const port = await freePort();
  const serverOptions = [
    `-p ${port}`,
    `-k ${directory}`,
    '-c listen_addresses=127.0.0.1',
    '-c fsync=off',
    '-c synchronous_commit=off',
    '-c full_page_writes=off',
    '-c max_connections=100',
  ].join(' ');

  // A tool runs as the postgres user when we are root; its working directory must be one it may enter.
  const tool = (name: (typeof TOOLS)[number], args: string[]) => {
    const [file, argv] = su ? [su, ['-u', 'postgres', '--', join(bin, name), ...args]] : [join(bin, name), args];
    return run(file, argv, { cwd: directory, timeout: 60_000 });
  };
  const ctl = (args: string[]) => tool('pg_ctl', ['-D', dataDir, ...args]);
  const running = () => existsSync(join(dataDir, 'postmaster.pid'));

  // Should the test process die without its after hook (killed by a runner's timeout), this stops the server
  // and removes its directory: a detached shell that waits for the test process to go.
  const watchdog = spawn('sh', ['-c', WATCHDOG, 'postgres-cluster-watchdog', String(process.pid), dataDir, directory, join(bin, 'pg_ctl'), su ?? ''], {
    cwd: '/',
    detached: true,
    stdio: 'ignore',
  });
  watchdog.unref();

  const cluster: PostgresCluster = {
    port,
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    async start() {
      try {
        await ctl(['start', '-w', '-t', '60', '-s', '-l', logFile, '-o', serverOptions]);
      } catch (error) {
        throw new Error(`PostgreSQL did not start: ${(error as Error).message}\n${cluster.log()}`);
      }
    },
    async stop(mode) {
      await ctl(['stop', '-m', mode, '-w', '-t', '60', '-s']);
    },
    async accepting(limitMs = 30_000) {
      return waitFor(
        async () => {
          const client = new pg.Client({ connectionString: cluster.url, connectionTimeoutMillis: 1_000 });
          client.on('error', () => {});
          try {
            await client.connect();
            await client.query('select 1');
            return Date.now();
          } finally {
            await client.end().catch(() => {});
          }
        },
        { timeout: limitMs, message: () => `PostgreSQL to accept connections\n${cluster.log()}` },
      );
    },
    log() {
      try {
        return readFileSync(logFile, 'utf8');
      } catch {
        return '(no server log)';
      }
    },
    async destroy() {
      if (running()) await ctl(['stop', '-m', 'immediate', '-w', '-t', '60', '-s']).catch(() => {});
      rmSync(directory, { recursive: true, force: true });
      watchdog.kill('SIGKILL');
    },
  };

  try {
    await tool('initdb', ['-D', dataDir, '-U', 'postgres', '-A', 'trust', '-E', 'UTF8', '--locale=C', '--no-sync', '--no-instructions']);
    await cluster.start();
  } catch (error) {
    await cluster.destroy();
    throw error;
  }
  return cluster;
}

function runuser(): string | undefined {
  return ['/usr/sbin/runuser', '/sbin/runuser', '/usr/bin/runuser'].find((path) => existsSync(path));
}

function postgresUser(): { uid: number; gid: number } | undefined {
  try {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim());
    return Number.isInteger(uid) && Number.isInteger(gid) ? { uid, gid } : undefined;
  } catch {
    return undefined;
  }
}
