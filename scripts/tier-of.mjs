// Sorts a test file into its tier by what it imports, so that a new file lands in the right one without a list to
// keep: scripts/run-tests.mjs runs the tiers one after the other (npm run test:unit, test:integration, test:system).
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, sep } from 'node:path';

/** Fastest first: a unit failure shows within a minute, before the slower tiers have run. */
export const TIERS = ['unit', 'integration', 'system'];

/** Modules that start other processes (gateways, CLIs, toolchains, openssl) or drive a browser. */
const SYSTEM_MODULES = new Set(['node:child_process', 'child_process', 'playwright-core']);

/** Modules that reach a database or Redis. */
const SERVICE_MODULES = new Set(['@electric-sql/pglite', 'pg', 'ioredis']);

/** Files whose (non-type) import opens or migrates databases: the test support, and the seam itself. */
const DATABASE_FILES = new Set(['test/support/test-databases.ts', 'src/db/database.ts', 'src/db/migrate.ts'].map(normalize));

/**
 * Every module `text` imports for its values, as written: static imports and re-exports (not `import type` /
 * `export type`, which load nothing) and dynamic `import('...')`.
 */
export function importsOf(text) {
  const found = [];
  for (const match of text.matchAll(/(?:^|\n)\s*(?:import|export)\s+(type\s+)?(?:[^'";]*?\s+from\s+)?['"]([^'"\n]+)['"]/g)) {
    if (!match[1]) found.push(match[2]);
  }
  for (const match of text.matchAll(/\bimport\(\s*['"]([^'"\n]+)['"]\s*\)/g)) found.push(match[1]);
  return found;
}

/** The file a relative specifier names (the sources are .ts, imported as .js, or extensionless in the console), or undefined outside the repository's files. */
function resolve(from, specifier, root) {
  if (!specifier.startsWith('.')) return undefined;
  const path = normalize(join(dirname(from), specifier));
  // The console's imports name no extension (bundler resolution): `./forms` is forms.tsx or forms.ts.
  for (const candidate of [path.replace(/\.js$/, '.ts'), path.replace(/\.mjs$/, '.mts'), path, `${path}.ts`, `${path}.tsx`]) {
    if (existsSync(join(root, candidate))) return candidate;
  }
  return undefined;
}

/**
 * The tier of the test file `file` (a path relative to `root`):
 * - system when it, or test code it imports, imports a module that starts a process or a browser;
 * - integration when it, or test code it imports, opens a database or Redis (test/support/test-databases.ts,
 *   the database seam, a client module), or when it lies under test/ (where unit tests never sit);
 * - unit otherwise: beside the code, in-process, no database.
 * Imports are followed through test/ only (the test support); production code is not a test's set-up.
 */
export function tierOf(file, root = process.cwd()) {
  const seen = new Set();
  const pending = [normalize(file)];
  let database = normalize(file).split(sep)[0] === 'test';
  while (pending.length > 0) {
    const current = pending.pop();
    if (seen.has(current)) continue;
    seen.add(current);
    for (const specifier of importsOf(readFileSync(join(root, current), 'utf8'))) {
      if (SYSTEM_MODULES.has(specifier)) return 'system';
      if (SERVICE_MODULES.has(specifier)) database = true;
      const target = resolve(current, specifier, root);
      if (target === undefined) continue;
      if (DATABASE_FILES.has(target)) database = true;
      if (target.split(sep)[0] === 'test') pending.push(target);
    }
  }
  return database ? 'integration' : 'unit';
}
