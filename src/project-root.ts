import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The directory holding the gateway's package.json, found from this file's own location, so that data
 * files resolve the same from the TypeScript sources (`src/`) and from the build (`dist/src/`).
 */
function findProjectRoot(): string {
  let directory = dirname(fileURLToPath(import.meta.url));
  while (!existsSync(join(directory, 'package.json'))) {
    const parent = dirname(directory);
    if (parent === directory) throw new Error('package.json not found above ' + fileURLToPath(import.meta.url));
    directory = parent;
  }
  return directory;
}

const root = findProjectRoot();

/** Absolute path of a file shipped with the project, given relative to its root. */
export function projectFile(relativePath: string): string {
  return join(root, relativePath);
}
