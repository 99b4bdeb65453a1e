/**
 * `engines` in package.json is a promise: `npm install` on the oldest Node it admits installs a tree that runs
 * (no EBADENGINE warning, no ESM-only package required by a CommonJS one where that Node cannot do it).
 * content-disposition@3 and cookie@2 want Node 22; @fastify/static is pinned to 10.1.3 and light-my-request
 * overridden to 6.6.0, the last releases depending on content-disposition@2 and cookie@1.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { describe, it } from 'node:test';
import { projectFile } from '../../src/project-root.js';

interface Semver {
  satisfies(version: string, range: string): boolean;
  minVersion(range: string): { version: string } | null;
}
const semver = createRequire(import.meta.url)('semver') as Semver;

const read = (path: string) => JSON.parse(readFileSync(projectFile(path), 'utf8'));
const manifest = read('package.json') as { engines: { node: string } };
const lock = read('package-lock.json') as { packages: Record<string, { engines?: { node?: string } | string[]; optional?: boolean }> };

describe('Node versions the project promises', () => {
  const oldest = semver.minVersion(manifest.engines.node)?.version;

  it('admits Node 20 (the machines here), 22 and 24', () => {
    assert.ok(oldest, manifest.engines.node);
    for (const version of ['20.20.0', '22.12.0', '24.0.0']) assert.ok(semver.satisfies(version, manifest.engines.node), version);
  });

  it('installs no package whose own engines exclude the oldest Node it admits', () => {
    const refused = Object.entries(lock.packages).flatMap(([path, entry]) => {
      const range = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
      return path !== '' && range && !semver.satisfies(oldest!, range) ? [`${path.replace(/^.*node_modules\//, '')} wants ${range}`] : [];
    });
    assert.deepEqual(refused, [], `on Node ${oldest}`);
  });

  it('builds its image on a Node release the promise admits', () => {
    const bases = [...readFileSync(projectFile('Dockerfile'), 'utf8').matchAll(/^FROM\s+node:(\d+)/gim)].map((match) => match[1]!);
    assert.ok(bases.length > 0);
    for (const major of bases) assert.ok(semver.satisfies(`${major}.0.0`, manifest.engines.node) || semver.satisfies(`${major}.99.0`, manifest.engines.node), major);
  });
});
