/**
 * The README's "Quick start" and "Try it", run as written in a copy of the repository outside it (its files as
 * git knows them: no node_modules, no build, no data): `npm install && npm start`, then the ready banner's
 * two commands as it printed them, then every block of "Try it" in one shell, in order. The one change is the
 * ports: the gateway gets free ones (PORT, ADMIN_PORT; ADMIN_URL for the CLI) and the commands' 8080 and 8081
 * are replaced by them, since this machine may serve something else there. Then a restart, which must not
 * build, and a changed source, which must.
 */
import assert from 'node:assert/strict';
import { execFile, execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { closeSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { projectFile } from '../../src/project-root.js';
import { freePort } from '../support/free-port.js';
import { partnerEnv } from '../support/partner-project.js';
import { waitFor } from '../support/wait-for.js';

const readme = readFileSync(projectFile('README.md'), 'utf8');
const section = (title: string) => [...readme.matchAll(/\n## ([^\n]+)\n[^]*?(?=\n## )/g)].find(([, heading]) => heading === title)?.[0] ?? '';
const shellBlocks = (text: string) => [...text.matchAll(/```sh\n([^]*?)```/g)].map(([, block]) => block!);
const BANNER = /\n(={78})\n(Partner Gateway [^\n]* is ready[^]*?)\n\1\n/;

/** The repository's files as git knows them (tracked, and new ones not ignored), copied to `target`. */
function copyRepository(target: string): void {
  const files = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: projectFile('.'), encoding: 'utf8' }).split('\0').filter(Boolean);
  for (const file of files) {
    const from = projectFile(file);
    if (!existsSync(from)) continue; // deleted in the working tree
    mkdirSync(dirname(join(target, file)), { recursive: true });
    copyFileSync(from, join(target, file));
  }
}

describe('the README\'s quick start, as written, in a copy of the repository', () => {
  const copy = mkdtempSync(join(tmpdir(), 'readme-quick-start-'));
  let port = 0;
  let adminPort = 0;
  let env: Record<string, string>;
  let gateway: { child: ChildProcess; log: string; exited: Promise<void> } | undefined;
  const ports = (text: string) => text.replaceAll('127.0.0.1:8080', `127.0.0.1:${port}`).replaceAll('127.0.0.1:8081', `127.0.0.1:${adminPort}`);
  const bash = (script: string) =>
    new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
      execFile('bash', ['--norc', '--noprofile', '-euo', 'pipefail', '-c', script], { cwd: copy, env, timeout: 120_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) =>
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
      );
    });

  /** Runs `script` in bash in the copy, in a process group of its own, its stdout and stderr into one file in the order written. */
  function startInBackground(script: string, name: string) {
    const log = join(copy, `${name}.log`);
    const fd = openSync(log, 'w');
    const child = spawn('bash', ['--norc', '--noprofile', '-c', script], { cwd: copy, env, stdio: ['ignore', fd, fd], detached: true });
    closeSync(fd);
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    gateway = { child, log, exited };
    return gateway;
  }
  /** Resolves with the log once `pattern` is in it; fails if the process ends first, or after `limitMs`. */
  async function logShows(pattern: RegExp, limitMs: number): Promise<string> {
    let ended = false;
    void gateway!.exited.then(() => (ended = true));
    const log = () => readFileSync(gateway!.log, 'utf8');
    await waitFor(() => ended || pattern.test(log()), { timeout: limitMs, interval: 200, message: () => `${pattern} in the log:\n${log().slice(-4000)}` });
    const text = log();
    if (!pattern.test(text)) throw new Error(`${pattern} never came (the process ended):\n${text.slice(-4000)}`);
    return text;
  }
  async function stop(): Promise<string> {
    const running = gateway!;
    gateway = undefined;
    if (running.child.exitCode === null && running.child.signalCode === null) process.kill(-running.child.pid!, 'SIGTERM');
    await running.exited;
    // npm can end before the gateway it started: the gateway has stopped (and logged so) once DATA_DIR is given back.
    await waitFor(() => !existsSync(join(copy, 'data', 'gateway.pid')), { timeout: 30_000, interval: 100, message: 'the gateway to give DATA_DIR back' });
    return readFileSync(running.log, 'utf8');
  }

  before(async () => {
    [port, adminPort] = [await freePort(), await freePort()];
    env = partnerEnv({ PORT: String(port), ADMIN_PORT: String(adminPort), ADMIN_URL: `http://127.0.0.1:${adminPort}`, npm_config_prefer_offline: 'true', npm_config_audit: 'false', npm_config_fund: 'false' });
    copyRepository(copy);
  });
  after(async () => {
    if (gateway) await stop();
    rmSync(copy, { recursive: true, force: true });
  });

  it('installs, builds and serves with the quick start\'s block; the banner comes last and its commands work as pasted', async () => {
    const [quickStart] = shellBlocks(section('Quick start'));
    assert.equal(quickStart, 'npm install && npm start\n');
    startInBackground(ports(quickStart!), 'first-start');
    const log = await logShows(BANNER, 600_000);
    const banner = BANNER.exec(log)!;
    // The start's log lines (pino writes them asynchronously) are all out before the banner, in the same file.
    for (const line of [`Server listening at http://127.0.0.1:${port}`, `Server listening at http://127.0.0.1:${adminPort}`, 'partner gateway listening']) {
      const at = log.indexOf(line);
      assert.ok(at >= 0 && at < banner.index, `"${line}" comes before the banner`);
    }
    assert.equal(log.slice(banner.index + banner[0].length).trim(), '', 'nothing after the banner');
    assert.match(banner[2]!, new RegExp(`API http://127\\.0\\.0\\.1:${port}, admin API http://127\\.0\\.0\\.1:${adminPort}`));

    const login = /^Log in:\n {2}(.+)$/m.exec(banner[2]!)?.[1];
    assert.ok(login, banner[2]);
    assert.equal(JSON.parse((await bash(login)).stdout).token_type, 'bearer');
    const banks = /^List the banks with a token \(bash or zsh\):\n((?: {2}.+\n?)+)/m.exec(banner[2]!)?.[1];
    assert.ok(banks, banner[2]);
    const listed = await bash(banks);
    assert.equal(listed.code, 0, listed.stderr);
    assert.equal(JSON.parse(listed.stdout).banks.length, 39);
  });

  it('runs every block of "Try it" as written: a partner of one\'s own, banks with a token, with the encrypted password, and through the CLI', async () => {
    const blocks = shellBlocks(section('Try it'));
    assert.ok(blocks.length >= 4, 'the section has its blocks');
    assert.doesNotMatch(blocks.join('\n'), /<[a-z][\w -]*>/i, 'no <placeholder> a shell would read as text');
    const marker = '----- next block -----';
    const result = await bash(blocks.map(ports).join(`\nprintf '\\n%s\\n' '${marker}'\n`));
    assert.equal(result.code, 0, `${result.stdout}\n${result.stderr}`);
    const outputs = result.stdout.split(`\n${marker}\n`).map((text) => text.trim());
    assert.equal(outputs.length, blocks.length);
    assert.match(outputs[0]!, /^Created partner try-it/m);
    const answers = outputs.filter((text) => text.startsWith('{')).map((text) => JSON.parse(text) as { banks: unknown[] });
    assert.deepEqual(answers.map((answer) => answer.banks.length), [39, 39], 'banks with the token, then with the encrypted password');
    const table = outputs.at(-1)!.split('\n');
    assert.match(table[0]!, /^BIC\s+NAME$/);
    assert.equal(table.length, 40);
  });

  it('restarts without building, and builds again once a source has changed', async () => {
    const first = await stop();
    assert.match(first, /shutting down/);
    assert.doesNotMatch(first, /^Building \(/m, 'npm install built it already: npm start did not');
    startInBackground('npm start', 'restart');
    const log = await logShows(BANNER, 120_000);
    assert.doesNotMatch(log, /^Building \(/m);
    assert.match(BANNER.exec(log)![2]!, /Admin API token: read from /);
    await stop();
    const check = (await bash('node scripts/build-when-stale.mjs --check')).stdout;
    assert.equal(check, 'up to date\n');
    const later = new Date(Date.now() + 2_000);
    utimesSync(join(copy, 'src/main.ts'), later, later);
    assert.equal((await bash('node scripts/build-when-stale.mjs --check')).stdout, 'src changed since the last build\n');
  });
});
