#!/usr/bin/env node
// Part of `npm run build`: runs PGlite's initdb once, here, and ships the new cluster as
// dist/pglite-cluster-<PGlite version>.tar.gz, so that a gateway's first start on an empty DATA_DIR loads it
// instead of running initdb itself. initdb inside WASM starts a second PGlite instance beside the first and
// took the first start's peak resident memory to ~750 MB (issue 35; docs/performance.md). The cluster holds no
// migration and nothing of one installation: the gateway migrates it at start as it did a cluster it made.
// Skipped when the file for this PGlite version is there already (it depends on nothing else).
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';

const root = fileURLToPath(new URL('..', import.meta.url));
const version = JSON.parse(readFileSync(join(root, 'node_modules/@electric-sql/pglite/package.json'), 'utf8')).version;
const target = join(root, 'dist', `pglite-cluster-${version}.tar.gz`);
if (!existsSync(target)) {
  const client = new PGlite();
  await client.waitReady;
  const image = await client.dumpDataDir('gzip');
  await client.close();
  mkdirSync(join(root, 'dist'), { recursive: true });
  writeFileSync(`${target}.partial`, Buffer.from(await image.arrayBuffer()));
  renameSync(`${target}.partial`, target);
}
