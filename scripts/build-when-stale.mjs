#!/usr/bin/env node
// `npm start`'s prestart: runs `npm run build` only when there is no complete build, or a source is newer
// than the last build's start, so that a restart without changes starts at once. The build marks itself:
// `--started` (prebuild) deletes compiled files whose source is gone and notes the time a build starts, `--finished` (the build's last step) makes that
// time the stamp, dist/.build-stamp. A source saved while a build runs is newer than the stamp, so the next
// start builds again; a build that fails leaves the old stamp, older than the sources, so does the next.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const STAMP = join(root, 'dist/.build-stamp');
const STARTED = join(root, 'dist/.build-started');
/** What the build reads: every file and folder here, but tests, which it never compiles. */
const SOURCES = [
  'src', 'packages/contract/src', 'packages/client/src', 'console/src', 'console/index.html', 'console/vite.config.mjs', 'console/tsconfig.json', 'console/portal', 'console/portal.vite.config.mjs',
  'package.json', 'package-lock.json', 'tsconfig.json', 'tsconfig.build.json',
  'packages/contract/package.json', 'packages/contract/tsconfig.json', 'packages/client/package.json', 'packages/client/tsconfig.json',
];
/** What a complete build holds: the gateway, the console, and the two packages it imports. */
const OUTPUTS = ['dist/src/main.js', 'dist/console/index.html', 'dist/portal/index.html', 'packages/contract/dist/paths.js', 'packages/client/dist/partner-client.js'];

/** The newest modification time under `path` (files and folders, so that a deleted file counts), 0 if absent. */
function newest(path) {
  let stat;
  try {
    stat = statSync(path);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return /\.test\.tsx?$/.test(path) ? 0 : stat.mtimeMs;
  return Math.max(stat.mtimeMs, ...readdirSync(path).map((entry) => newest(join(path, entry))));
}

/** Why a build is needed, or undefined when the one there is complete and newer than every source. */
export function staleBecause() {
  const missing = OUTPUTS.find((output) => !existsSync(join(root, output)));
  if (missing) return `${missing} is missing`;
  if (!existsSync(STAMP)) return 'no build stamp (dist/.build-stamp)';
  const built = statSync(STAMP).mtimeMs;
  const changed = SOURCES.find((source) => newest(join(root, source)) > built);
  return changed ? `${changed} changed since the last build` : undefined;
}

/** Deletes the compiled files under `built` whose source under `sources` (the same path, .ts) is gone. */
function removeOrphans(built, sources) {
  let entries;
  try {
    entries = readdirSync(built, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) {
    const path = join(built, entry.name);
    if (entry.isDirectory()) {
      removeOrphans(path, join(sources, entry.name));
      continue;
    }
    const base = entry.name.replace(/(\.d)?\.js(\.map)?$|\.d\.ts(\.map)?$/, '');
    if (base !== entry.name && !existsSync(join(sources, `${base}.ts`)) && !existsSync(join(sources, `${base}.tsx`))) rmSync(path);
  }
}

const mode = process.argv[2];
if (mode === '--started') {
  // A source removed or renamed since the last build (a migration, found by its file name) must leave no compiled
  // file behind to run twice; the build itself is incremental and writes only what changed.
  removeOrphans(join(root, 'dist/src'), join(root, 'src'));
  mkdirSync(join(root, 'dist'), { recursive: true });
  writeFileSync(STARTED, `${new Date().toISOString()}\n`);
} else if (mode === '--finished') {
  renameSync(STARTED, STAMP);
} else if (mode === '--check') {
  process.stdout.write(`${staleBecause() ?? 'up to date'}\n`);
} else {
  const reason = staleBecause();
  if (reason !== undefined) {
    process.stderr.write(`Building (${reason})...\n`);
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const { status } = spawnSync(npm, ['run', 'build', '--silent'], { cwd: root, stdio: 'inherit' });
    if (status !== 0) process.exit(status ?? 1);
  }
}
