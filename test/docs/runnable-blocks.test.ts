/**
 * Every shell block the README and docs/ mark runnable, run as written. A block is marked by the line
 * `<!-- runnable -->` right before its ```sh fence; `<!-- runnable: server -->` marks one that starts the
 * gateway: it runs until the gateway is ready (`/readyz` answers 200), then is stopped with SIGTERM and must shut
 * down without an error; then once more, since a start command must work the second time too. The blocks of a document run in order, in one folder of their own for all documents (the README's
 * first, so that a later block finds the secrets an earlier one made), which holds the repository's files as
 * links, `deploy/` as a copy (blocks write into it), and nothing else; each in bash with `-euo pipefail`.
 *
 * What a block cannot know is filled in, and only that: a `…` is the reader's own value (`postgres://…` becomes a
 * fresh database on the test's PostgreSQL, `https://…` a public address), and PORT, ADMIN_PORT and HOST come from
 * the environment (free loopback ports), as a reader's own would. Without `TEST_DATABASE_URL` the suite is
 * skipped outside CI; under CI that is a failure.
 */
import assert from 'node:assert/strict';
import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, cpSync, existsSync, mkdtempSync, openSync, readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { projectFile } from '../../src/project-root.js';
import { freePort } from '../support/free-port.js';
import { partnerEnv } from '../support/partner-project.js';
import { adminQuery } from '../support/test-databases.js';
import { waitFor } from '../support/wait-for.js';

const DATABASE_SERVER = process.env.TEST_DATABASE_URL;
const ON_CI = process.env.CI === 'true';
const skip = !DATABASE_SERVER && !ON_CI ? 'TEST_DATABASE_URL is not set (the production command needs PostgreSQL); required when CI=true' : false;

/** The top-level entries blocks write into, copied rather than linked so that the repository stays as it is. */
const COPIED = new Set(['deploy']);
/** What a block may make in the folder, never taken from the repository. */
const LEFT_OUT = new Set(['.git', 'data', '.env', 'admin-token', 'master-key', 'metrics-token']);
const PUBLIC_URL = 'https://partners.example.com';

interface Block {
  document: string;
  line: number;
  server: boolean;
  script: string;
}

/** The runnable blocks of one Markdown document, in order; a marker not followed by a ```sh fence fails. */
function runnableBlocks(document: string): Block[] {
  const lines = readFileSync(projectFile(document), 'utf8').split('\n');
  const blocks: Block[] = [];
  lines.forEach((text, index) => {
    const marker = /^<!-- runnable(: server)? -->$/.exec(text);
    if (!marker) {
      assert.doesNotMatch(text, /^\s*<!--\s*runnable/, `${document}:${index + 1}: a runnable marker is exactly <!-- runnable --> or <!-- runnable: server -->`);
      return;
    }
    assert.equal(lines[index + 1], '```sh', `${document}:${index + 1}: the marker is right before a \`\`\`sh fence`);
    const end = lines.indexOf('```', index + 2);
    assert.ok(end > index, `${document}:${index + 1}: the block ends`);
    blocks.push({ document, line: index + 2, server: !!marker[1], script: lines.slice(index + 2, end).join('\n') + '\n' });
  });
  return blocks;
}

const documents = ['README.md', ...readdirSync(projectFile('docs')).filter((name) => name.endsWith('.md')).sort().map((name) => `docs/${name}`)];

describe('the runnable blocks of the README and docs/, as written', { skip }, () => {
  const blocks = documents.flatMap(runnableBlocks);
  const folder = mkdtempSync(join(tmpdir(), 'runnable-blocks-'));
  const logs = mkdtempSync(join(tmpdir(), 'runnable-blocks-logs-'));
  const database = `runnable_blocks_${randomBytes(6).toString('hex')}`;
  let databaseUrl = '';
  let env: Record<string, string> = {};
  let port = 0;
  let running: { child: ChildProcess; exited: Promise<void> } | undefined;

  /** The block as the reader would have typed it, with their own values in place of each `…`. */
  function filledIn(block: Block): string {
    const script = block.script.replaceAll('postgres://…', databaseUrl).replaceAll('https://…', PUBLIC_URL);
    assert.doesNotMatch(script, /…/, `${block.document}:${block.line}: a placeholder this test does not fill in`);
    return script;
  }

  before(async () => {
    assert.ok(DATABASE_SERVER, 'CI=true but TEST_DATABASE_URL is not set');
    for (const entry of readdirSync(projectFile('.'))) {
      if (LEFT_OUT.has(entry)) continue;
      if (COPIED.has(entry)) cpSync(projectFile(entry), join(folder, entry), { recursive: true });
      else symlinkSync(projectFile(entry), join(folder, entry));
    }
    await adminQuery(DATABASE_SERVER, `create database ${database}`);
    const url = new URL(DATABASE_SERVER);
    url.pathname = `/${database}`;
    databaseUrl = url.href;
    port = await freePort();
    const adminPort = await freePort();
    // A reader's shell: PATH, HOME and the language, none of this test run's settings (node options, npm's
    // variables, TEST_*), their own ports, and loopback only.
    env = partnerEnv({ PORT: String(port), ADMIN_PORT: String(adminPort), HOST: '127.0.0.1', ADMIN_HOST: '127.0.0.1', npm_config_update_notifier: 'false' });
  });

  after(async () => {
    if (running) await stop();
    rmSync(folder, { recursive: true, force: true });
    rmSync(logs, { recursive: true, force: true });
    if (DATABASE_SERVER && databaseUrl) await adminQuery(DATABASE_SERVER, `drop database if exists ${database} with (force)`);
  });

  /** SIGTERM to the block's process group, as a supervisor or Ctrl-C sends it; resolves once every process of it is gone. */
  async function stop(): Promise<void> {
    const { child, exited } = running!;
    running = undefined;
    const group = -child.pid!;
    const alive = () => {
      try {
        process.kill(group, 0);
        return true;
      } catch {
        return false;
      }
    };
    if (alive()) process.kill(group, 'SIGTERM');
    await exited;
    // The shell dies of the signal at once; the gateway under npm takes its shutdown's time.
    await waitFor(() => !alive(), { timeout: 30_000, interval: 100, message: 'the gateway to exit after SIGTERM' });
  }

  it('finds the marked blocks: the README\'s production command among them', () => {
    assert.ok(blocks.some((block) => block.document === 'README.md' && block.server && /\bNODE_ENV=production\b.*\bnpm start\b/.test(block.script)), 'the production command');
    assert.ok(blocks.filter((block) => block.server).length >= 1);
    assert.ok(blocks.length >= 3);
  });

  for (const block of documents.flatMap(runnableBlocks)) {
    const name = `${block.document}:${block.line}${block.server ? ' (starts the gateway)' : ''}: ${block.script.split('\n')[0]!.slice(0, 70)}`;
    it(name, { timeout: 600_000 }, async () => {
      const script = filledIn(block);
      if (!block.server) {
        const result = await new Promise<{ code: number; output: string }>((resolve) =>
          execFile('bash', ['--norc', '--noprofile', '-euo', 'pipefail', '-c', script], { cwd: folder, env, timeout: 120_000 }, (error, stdout, stderr) =>
            resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, output: `${stdout}${stderr}` }),
          ),
        );
        assert.equal(result.code, 0, result.output);
        return;
      }
      // Twice: a second start with the same secrets must work too (a key made anew at each start would not).
      for (const start of ['first', 'second']) {
        const log = join(logs, `block-${block.line}-${start}.log`);
        const fd = openSync(log, 'w');
        const child = spawn('bash', ['--norc', '--noprofile', '-euo', 'pipefail', '-c', script], { cwd: folder, env, stdio: ['ignore', fd, fd], detached: true });
        closeSync(fd);
        const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
        running = { child, exited };
        let ended = false;
        void exited.then(() => (ended = true));
        const output = () => (existsSync(log) ? readFileSync(log, 'utf8') : '');
        // A stale build is rebuilt first, as the reader's `npm start` would: minutes, not seconds.
        await waitFor(async () => ended || (await fetch(`http://127.0.0.1:${port}/readyz`).then((response) => response.ok, () => false)), {
          timeout: 540_000,
          interval: 250,
          message: () => `the gateway to be ready:\n${output().slice(-4000)}`,
        });
        assert.equal(ended, false, `${start} start: the block ended before the gateway was ready:\n${output().slice(-4000)}`);
        const version = await fetch(`http://127.0.0.1:${port}/version`);
        assert.equal(version.status, 200);
        await stop();
        assert.match(output(), /shutting down/, 'SIGTERM reached the gateway');
        assert.doesNotMatch(output(), /"level":(50|60)|"level":"(error|fatal)"/, `no error in the log:\n${output().slice(-4000)}`);
      }
    });
  }

  it('writes an .env that gives docker-compose.yml every variable it requires (${NAME:?…})', () => {
    const required = new Set([...readFileSync(projectFile('docker-compose.yml'), 'utf8').matchAll(/\$\{(\w+):\?/g)].map(([, name]) => name!));
    assert.ok(required.size >= 3);
    const written = new Map(readFileSync(join(folder, '.env'), 'utf8').split('\n').filter((line) => /^\w+=/.test(line)).map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)] as const));
    for (const name of required) assert.match(written.get(name) ?? '', /^[0-9a-f]{32,}$/, `.env sets ${name}`);
  });

  it('leaves nothing git would commit or docker would build: every file the blocks made is ignored (secrets, keys)', () => {
    /** The files under `dir` (relative to the folder) that the repository does not have; links are the repository's own. */
    const made = (dir: string): string[] =>
      readdirSync(join(folder, dir), { withFileTypes: true }).flatMap((entry) => {
        const path = dir ? `${dir}/${entry.name}` : entry.name;
        if (entry.isSymbolicLink()) return [];
        if (entry.isDirectory()) return existsSync(projectFile(path)) ? made(path) : [`${path}/`];
        return existsSync(projectFile(path)) ? [] : [path];
      });
    const files = made('');
    assert.ok(files.includes('admin-token') && files.includes('master-key'), files.join(', '));
    const dockerignore = readFileSync(projectFile('.dockerignore'), 'utf8').split('\n').map((line) => line.trim()).filter((line) => line && !line.startsWith('#'));
    for (const path of files) {
      assert.equal(spawnSync('git', ['check-ignore', '--no-index', '-q', path], { cwd: projectFile('.') }).status, 0, `${path} is not in .gitignore`);
      const bare = path.replace(/\/$/, '');
      assert.ok(dockerignore.some((pattern) => bare === pattern || bare.startsWith(`${pattern}/`)), `${path} is not in .dockerignore`);
    }
  });
});
