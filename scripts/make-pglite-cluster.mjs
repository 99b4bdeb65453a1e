#!/usr/bin/env node
// Part of `npm run build`, after the compiler: makes the cluster a gateway's first start on an empty DATA_DIR
// copies (src/db/shipped-cluster.ts), dist/pglite-cluster-<PGlite version>/, with every migration of this
// build applied. Issue 35 (docs/performance.md): initdb inside WASM starts a second PGlite instance beside the
// first (~750 MB peak resident memory at a first start), a tarball given to PGlite's loadDataDir is unpacked in
// memory (~90 MB more), and migrating in the gateway's process grows PGlite's WebAssembly memory, which never
// shrinks (~60 MB). The cluster holds the schema and the migrations' own rows, nothing of one installation (no
// key, partner or operator: the gateway makes those at its first start). Remade when the PGlite version or a
// compiled migration changes (dist/pglite-cluster-<version>.stamp, their SHA-256), skipped otherwise.
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const version = JSON.parse(readFileSync(join(root, 'node_modules/@electric-sql/pglite/package.json'), 'utf8')).version;
const target = join(root, 'dist', `pglite-cluster-${version}`);
const stampFile = `${target}.stamp`;
const migrations = join(root, 'dist/src/db/migrations');

const hash = createHash('sha256').update(version);
for (const name of readdirSync(migrations).filter((file) => /^\d{4}-[a-z0-9-]+\.js$/.test(file)).sort()) {
  hash.update(`\0${name}\0`).update(readFileSync(join(migrations, name)));
}
const stamp = hash.digest('hex');

if (!existsSync(join(target, 'PG_VERSION')) || !existsSync(stampFile) || readFileSync(stampFile, 'utf8') !== stamp) {
  // Removed first, so that the gateway's own opening below runs initdb rather than copying a stale cluster.
  rmSync(stampFile, { force: true });
  rmSync(target, { recursive: true, force: true });
  const { openDatabase } = await import(pathToFileURL(join(root, 'dist/src/db/database.js')).href);
  const { migrateToLatest } = await import(pathToFileURL(join(root, 'dist/src/db/migrate.js')).href);
  const work = mkdtempSync(`${target}.partial-`);
  try {
    const handle = await openDatabase({ dataDir: work });
    await migrateToLatest(handle.db);
    await handle.close();
    renameSync(join(work, 'pglite'), target);
    writeFileSync(stampFile, stamp);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
