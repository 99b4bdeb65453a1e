#!/usr/bin/env node
// `npm run pack:sdk [-- <folder>] [--no-build] [--json]`: packs the partner kit, @partner-gateway/contract
// and @partner-gateway/client, into <folder> (default dist/packages/), replacing earlier tarballs there, and
// prints what each holds. Each package is built first (its prepack script) unless --no-build: the tests pack
// the build `npm test` made, since rebuilding it in place would pull files from under the suites running
// beside them. A compiled file with no source (left behind by a renamed module) stops the pack. A partner
// installs the pair: npm install ./partner-gateway-contract-<v>.tgz ./partner-gateway-client-<v>.tgz
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = process.argv.slice(2);
const folder = resolve(root, args.find((arg) => !arg.startsWith('--')) ?? 'dist/packages');
const WORKSPACES = ['packages/contract', 'packages/client'];

mkdirSync(folder, { recursive: true });
for (const file of readdirSync(folder)) if (/^partner-gateway-(contract|client)-.*\.tgz$/.test(file)) rmSync(join(folder, file));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const output = execFileSync(
  npm,
  ['pack', '--json', '--pack-destination', folder, ...(args.includes('--no-build') ? ['--ignore-scripts'] : []), ...WORKSPACES.flatMap((workspace) => ['--workspace', workspace])],
  { cwd: root, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] },
);
const packed = JSON.parse(output.slice(output.indexOf('[')));

const strays = packed.flatMap(({ name, files }, index) =>
  files
    .map(({ path }) => path)
    .filter((path) => path.startsWith('dist/') && /\.(js|d\.ts)$/.test(path))
    .filter((path) => !existsSync(join(root, WORKSPACES[index], 'src', path.slice('dist/'.length).replace(/(\.d\.ts|\.js)$/, '.ts'))))
    .map((path) => `${name}: ${path}`),
);
if (strays.length > 0) {
  for (const file of readdirSync(folder)) if (/^partner-gateway-(contract|client)-.*\.tgz$/.test(file)) rmSync(join(folder, file));
  process.stderr.write(`Compiled files without a source (remove the packages' dist/ folders and pack again):\n  ${strays.join('\n  ')}\n`);
  process.exit(1);
}
if (args.includes('--json')) {
  process.stdout.write(`${JSON.stringify(packed, null, 2)}\n`);
} else {
  for (const { name, version, filename, size, unpackedSize, entryCount } of packed) {
    process.stdout.write(`${name}@${version}: ${join(folder, filename)} (${(size / 1024).toFixed(1)} kB, ${entryCount} files, ${(unpackedSize / 1024).toFixed(1)} kB unpacked)\n`);
  }
}
