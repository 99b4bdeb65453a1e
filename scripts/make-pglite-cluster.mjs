#!/usr/bin/env node
// Part of `npm run build`: runs PGlite's initdb once, here, and ships the new cluster as the directory
// dist/pglite-cluster-<PGlite version>/, which a gateway's first start on an empty DATA_DIR copies
// (src/db/shipped-cluster.ts) instead of running initdb itself. initdb inside WASM starts a second PGlite
// instance beside the first and took the first start's peak resident memory to ~750 MB; a tarball given to
// PGlite's loadDataDir is unpacked in memory and still cost ~90 MB (issue 35; docs/performance.md). The cluster
// holds no migration and nothing of one installation: the gateway migrates it at start as it did a cluster it
// made. Skipped when the directory for this PGlite version is there already (it depends on nothing else).
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';

const root = fileURLToPath(new URL('..', import.meta.url));
const version = JSON.parse(readFileSync(join(root, 'node_modules/@electric-sql/pglite/package.json'), 'utf8')).version;
const target = join(root, 'dist', `pglite-cluster-${version}`);
if (!existsSync(join(target, 'PG_VERSION'))) {
  const partial = `${target}.partial`;
  rmSync(partial, { recursive: true, force: true });
  mkdirSync(join(root, 'dist'), { recursive: true });
  const client = new PGlite(partial);
  await client.waitReady;
  await client.close();
  rmSync(target, { recursive: true, force: true });
  renameSync(partial, target);
}
