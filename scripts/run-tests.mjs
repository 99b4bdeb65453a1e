#!/usr/bin/env node
// Runs every `*.test.ts` beside the code and under test/ with node's own test runner (through tsx). Node 20
// cannot expand globs in `--test`, so the files are listed here. Extra arguments are passed on (e.g. a file to
// run alone; --list prints the files it would run and exits). After node's own closing lines, which are left
// as they are, it lists what was skipped and why.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join, relative } from 'node:path';

const roots = ['src', 'packages', 'scripts', 'test'];
// Build output only: a folder of tests may be called anything, test/build/ included.
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

/**
 * Node's default reporter (spec on a terminal; tap otherwise before Node 23, spec since), named because a
 * second reporter is added: naming any reporter replaces the default.
 */
function reporters(args) {
  if (args.some((arg) => arg.startsWith('--test-reporter'))) return [];
  const nodeMajor = Number(process.versions.node.split('.')[0]);
  return [`--test-reporter=${process.stdout.isTTY || nodeMajor >= 23 ? 'spec' : 'tap'}`, '--test-reporter-destination=stdout'];
}

/** "skipped: 7 suites (TEST_REDIS_URL is not set): file (suite name), ..." one line per reason. */
function skippedSummary(jsonLines) {
  const byReason = new Map();
  for (const line of jsonLines.split('\n').filter(Boolean)) {
    const { file, name, suite, reason } = JSON.parse(line);
    const key = `${suite ? 'suite' : 'test'}\0${reason || 'no reason given'}`;
    const where = file ? relative(process.cwd(), file) : '?';
    byReason.set(key, [...(byReason.get(key) ?? []), `${where} (${name})`]);
  }
  return [...byReason].map(([key, entries]) => {
    const [kind, reason] = key.split('\0');
    return `# skipped: ${entries.length} ${kind}${entries.length === 1 ? '' : 's'} (${reason}): ${entries.join(', ')}`;
  });
}

const args = process.argv.slice(2);
const files = args.some((arg) => arg.endsWith('.ts')) ? [] : roots.flatMap(findTests).sort();
if (args.includes('--list')) {
  process.stdout.write(`${files.join('\n')}\n`);
  process.exit(0);
}
const concurrency = Math.max(2, availableParallelism());
const reportDir = mkdtempSync(join(tmpdir(), 'run-tests-'));
const skippedFile = join(reportDir, 'skipped.jsonl');
const child = spawn(
  process.execPath,
  [
    '--import', 'tsx', '--test', `--test-concurrency=${concurrency}`,
    ...reporters(args),
    `--test-reporter=${new URL('./skipped-reporter.mjs', import.meta.url).href}`, `--test-reporter-destination=${skippedFile}`,
    ...args, ...files,
  ],
  { stdio: 'inherit', env: { ...process.env, NODE_ENV: 'test' } },
);
child.on('exit', (code, signal) => {
  let skipped = '';
  try {
    skipped = readFileSync(skippedFile, 'utf8');
  } catch {
    // No run, nothing skipped.
  }
  rmSync(reportDir, { recursive: true, force: true });
  const summary = skippedSummary(skipped);
  if (summary.length > 0) process.stdout.write(`${summary.join('\n')}\n`);
  process.exit(signal ? 1 : (code ?? 1));
});
