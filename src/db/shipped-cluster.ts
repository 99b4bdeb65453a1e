import { cpSync, existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { projectFile } from '../project-root.js';

/**
 * The empty cluster `npm run build` made for the installed PGlite version (scripts/make-pglite-cluster.mjs,
 * `dist/pglite-cluster-<version>/`), or undefined: sources run without a build, or another PGlite version.
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
 * Copies the shipped empty cluster into `directory` (a new DATA_DIR's `pglite/`) and answers whether there was
 * one to copy. The files are copied by the kernel, not read into the process: loading the same cluster as a
 * tarball through PGlite's `loadDataDir` unpacked it in memory and took the first start's peak resident memory
 * ~90 MB higher (docs/performance.md). `PG_VERSION` is copied last, so a start that crashed while copying finds
 * no cluster the next time and copies again over what it left.
 */
export function copyShippedCluster(directory: string): boolean {
  const shipped = shippedClusterDirectory();
  if (shipped === undefined) return false;
  const marker = join(shipped, 'PG_VERSION');
  cpSync(shipped, directory, { recursive: true, force: true, filter: (source) => source !== marker });
  cpSync(marker, join(directory, 'PG_VERSION'));
  return true;
}
