#!/usr/bin/env node
// Runs every `*.test.ts` beside the code with node's own test runner (through tsx). Node 20 cannot expand
// globs in `--test`, so the files are listed here. Extra arguments are passed on (e.g. a file to run alone).
import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';

const roots = ['src', 'packages', 'scripts', 'test'];
const skip = new Set(['node_modules', 'dist']);

function findTests(dir) {
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return [];
  }
  return entries.flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return skip.has(entry.name) ? [] : findTests(path);
    return entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

const args = process.argv.slice(2);
const files = args.some((arg) => arg.endsWith('.ts')) ? [] : roots.flatMap(findTests).sort();
const concurrency = Math.max(2, availableParallelism());
const child = spawn(
  process.execPath,
  ['--import', 'tsx', '--test', `--test-concurrency=${concurrency}`, ...args, ...files],
  { stdio: 'inherit', env: { ...process.env, NODE_ENV: 'test' } },
);
child.on('exit', (code, signal) => process.exit(signal ? 1 : (code ?? 1)));
