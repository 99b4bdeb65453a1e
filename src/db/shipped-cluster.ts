import { chmodSync, copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectFile } from '../project-root.js';

/**
 * The cluster `npm run build` made for the installed PGlite version, every migration of the build applied
 * (scripts/make-pglite-cluster.mjs, `dist/pglite-cluster-<version>/`), or undefined: sources run without a
 * build, or another PGlite version.
 */
export function shippedClusterDirectory(): string | undefined {
  let version: string;
  try {
    version = (JSON.parse(readFileSync(projectFile('node_modules/@electric-sql/pglite/package.json'), 'utf8')) as { version: string }).version;
  } catch {
    return undefined;
  }
  const directory = projectFile(`dist/pglite-cluster-${version}`);
  return existsSync(join(directory, 'PG_VERSION')) ? directory : undefined;
}

/**
 * Copies the shipped cluster into `directory` (a new DATA_DIR's `pglite/`) and answers whether there was one to
 * copy. The files are copied by the kernel, not read into the process: the same cluster given to PGlite's
 * `loadDataDir` as a tarball was unpacked in memory and took the first start's peak resident memory ~90 MB
 * higher (docs/performance.md). Every file is made 0600 and every folder 0700 whatever the build's umask (they
 * will hold every partner's argon2 hash). `PG_VERSION` is copied last, so a start that crashed while copying
 * finds no cluster the next time and copies again over what it left.
 */
export function copyShippedCluster(directory: string): boolean {
  const shipped = shippedClusterDirectory();
  if (shipped === undefined) return false;
  copyTree(shipped, directory, (name, depth) => depth === 0 && name === 'PG_VERSION');
  copyFile(join(shipped, 'PG_VERSION'), join(directory, 'PG_VERSION'));
  return true;
}

function copyTree(from: string, to: string, skip: (name: string, depth: number) => boolean, depth = 0): void {
  mkdirSync(to, { recursive: true, mode: 0o700 });
  chmodSync(to, 0o700);
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    if (skip(entry.name, depth)) continue;
    if (entry.isDirectory()) copyTree(join(from, entry.name), join(to, entry.name), skip, depth + 1);
    else if (entry.isFile()) copyFile(join(from, entry.name), join(to, entry.name));
  }
}

function copyFile(from: string, to: string): void {
  copyFileSync(from, to);
  chmodSync(to, 0o600);
}
