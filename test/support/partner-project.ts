import { execFile, execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, delimiter, dirname, join, relative } from 'node:path';
import { projectFile } from '../../src/project-root.js';

/** One tarball `npm run pack:sdk` wrote, with npm pack's report of it. */
export interface PackedPackage {
  name: string;
  version: string;
  /** Absolute path of the .tgz. */
  path: string;
  size: number;
  unpackedSize: number;
  files: Array<{ path: string; size: number }>;
}

let packed: Promise<PackedPackage[]> | undefined;

/**
 * The partner kit's tarballs, packed once per test process by `scripts/pack-sdk.mjs --no-build` (the build
 * `npm test` made; rebuilding in place would change files under the suites running beside this one) into a
 * temporary folder, removed when the process exits.
 */
export function packSdk(): Promise<PackedPackage[]> {
  packed ??= new Promise((resolve, reject) => {
    const folder = mkdtempSync(join(tmpdir(), 'sdk-tarballs-'));
    process.once('exit', () => rmSync(folder, { recursive: true, force: true }));
    execFile(process.execPath, [projectFile('scripts/pack-sdk.mjs'), folder, '--no-build', '--json'], { cwd: projectFile('.'), env: partnerEnv(), maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) return reject(new Error(`pack:sdk failed: ${stderr}`));
      const report = JSON.parse(stdout) as Array<Omit<PackedPackage, 'path'> & { filename: string }>;
      resolve(report.map(({ filename, ...rest }) => ({ ...rest, path: join(folder, filename) })));
    });
  });
  return packed;
}

/**
 * The environment of a partner's shell: this machine's PATH without any folder of this repository (npm puts
 * its node_modules/.bin first when it runs `npm test`), HOME (npm's cache), and none of the `npm_*` settings
 * or node options the test runner was started with (`npm_config_local_prefix` names this repository).
 */
export function partnerEnv(extra: Record<string, string> = {}): Record<string, string> {
  const root = projectFile('.');
  const path = (process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin')
    .split(delimiter)
    .filter((folder) => folder !== '' && relative(root, folder).startsWith('..'))
    .join(delimiter);
  const kept: Record<string, string> = { PATH: path, HOME: process.env.HOME ?? tmpdir(), LANG: process.env.LANG ?? 'C.UTF-8' };
  if (process.env.TMPDIR) kept.TMPDIR = process.env.TMPDIR;
  return { ...kept, ...extra };
}

export interface CommandResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** A partner's project: an empty folder outside the repository, then whatever the test installs into it. */
export interface PartnerProject {
  dir: string;
  /** The tarballs, copied into `dir` under their own names (what a partner is given). */
  tarballs: PackedPackage[];
  /** Runs `command` in `dir` in the partner's environment (`partnerEnv` plus `env`), `input` on its stdin. */
  run(command: string, args: string[], options?: { env?: Record<string, string>; input?: string; timeoutMs?: number }): Promise<CommandResult>;
  /** Runs a bash script in `dir` (`set -euo pipefail`), in the partner's environment plus `env`. */
  bash(script: string, env?: Record<string, string>): Promise<CommandResult>;
  remove(): void;
}

/**
 * An empty folder under the system's temporary directory (never inside this repository, and with no
 * node_modules above it through which Node could reach this repository's packages) holding a `package.json`
 * of type module, and the tarballs of `packSdk()`.
 */
export async function createPartnerProject(): Promise<PartnerProject> {
  const tarballs = await packSdk();
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'partner-project-')));
  if (!relative(projectFile('.'), dir).startsWith('..')) throw new Error(`${dir} is inside the repository`);
  for (let folder = dirname(dir); ; folder = dirname(folder)) {
    if (existsSync(join(folder, 'node_modules'))) throw new Error(`${folder}/node_modules would be visible from ${dir}`);
    if (dirname(folder) === folder) break;
  }
  for (const tarball of tarballs) copyFileSync(tarball.path, join(dir, basename(tarball.path)));
  const run: PartnerProject['run'] = (command, args, options = {}) =>
    new Promise((resolve) => {
      const child = execFile(command, args, { cwd: dir, env: partnerEnv(options.env), timeout: options.timeoutMs ?? 600_000, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) =>
        resolve({ code: error ? (typeof error.code === 'number' ? error.code : 1) : 0, stdout, stderr }),
      );
      child.stdin?.end(options.input ?? '');
    });
  const project: PartnerProject = {
    dir,
    tarballs,
    run,
    bash: (script, env = {}) => run('bash', ['--norc', '--noprofile', '-euo', 'pipefail', '-c', script], { env }),
    remove: () => rmSync(dir, { recursive: true, force: true }),
  };
  const init = await project.bash('npm init -y > /dev/null && npm pkg set type=module');
  if (init.code !== 0) throw new Error(`npm init failed: ${init.stderr}`);
  return project;
}

/**
 * The exact versions of TypeScript and Node's types this repository builds with, for a partner project's
 * devDependencies (`typescript@5.9.3`): what the examples are compiled with here, and in npm's cache already.
 */
export function repositoryToolVersions(): string[] {
  return ['typescript', '@types/node'].map((name) => `${name}@${(JSON.parse(readFileSync(projectFile(`node_modules/${name}/package.json`), 'utf8')) as { version: string }).version}`);
}

/** npm's own answer to `npm ls` in `dir`: every installed package's name and folder, production dependencies only. */
export function installedPackages(dir: string): Array<{ name: string; path: string }> {
  const output = execFileSync('npm', ['ls', '--all', '--omit=dev', '--parseable', '--long'], { cwd: dir, env: partnerEnv(), encoding: 'utf8' });
  return output
    .split('\n')
    .filter(Boolean)
    .slice(1) // the project itself
    .map((line) => {
      const [path, spec] = line.split(':');
      return { path: path!, name: spec!.slice(0, spec!.lastIndexOf('@')) };
    });
}
