#!/usr/bin/env node
// Runs every `*.test.ts` beside the code and under test/ with node's own test runner (through tsx), in three
// tiers one after the other, each in a node run of its own: unit (in-process, no database), integration (databases,
// in-process gateways), system (child processes, toolchains, browsers); scripts/tier-of.mjs sorts the files by
// what they import. Node 20 cannot expand globs in `--test`, so the files are listed here. `--tier NAME` runs one
// tier; every tier runs even when an earlier one failed, and the run fails at the end if any did. Extra arguments
// are passed on (e.g. a file to run alone, which runs as it is, in no tier; --list prints the files it would run
// and exits). After node's own closing lines of each tier, which are left as they are, it lists what was skipped
// and why, and what failed; after all three, one line sums them up and the failures are named again, last, so that
// the tail of a long log says which tests failed.
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join, relative, resolve as resolvePath } from 'node:path';
import { pathToFileURL } from 'node:url';
import { TIERS, tierOf } from './tier-of.mjs';

const roots = ['src', 'packages', 'console', 'scripts', 'test'];
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

/** The outcome reporter's lines (scripts/outcome-reporter.mjs), read. */
function outcomesOf(jsonLines) {
  return jsonLines.split('\n').filter(Boolean).map((line) => JSON.parse(line));
}

/** "skipped: 7 suites (TEST_REDIS_URL is not set): file (suite name), ..." one line per reason. */
function skippedSummary(outcomes) {
  const byReason = new Map();
  for (const { file, name, suite, reason } of outcomes.filter(({ outcome }) => outcome === 'skipped')) {
    const key = `${suite ? 'suite' : 'test'}\0${reason || 'no reason given'}`;
    const where = file ? relative(process.cwd(), file) : '?';
    byReason.set(key, [...(byReason.get(key) ?? []), `${where} (${name})`]);
  }
  return [...byReason].map(([key, entries]) => {
    const [kind, reason] = key.split('\0');
    return `# skipped: ${entries.length} ${kind}${entries.length === 1 ? '' : 's'} (${reason}): ${entries.join(', ')}`;
  });
}

/** "failed: file (test name): the error's first line", one line per failed test (node may report one twice). */
function failedLines(outcomes) {
  const lines = outcomes
    .filter(({ outcome }) => outcome === 'failed')
    .map(({ file, name, reason }) =>
      // A file that could not be loaded in a shared process is reported from that process's entry: its test names it.
      name.endsWith(LOADING) && /shared-process-\d+\.mjs$/.test(file ?? '')
        ? `# failed: ${name}: ${reason || 'no error given'}`
        : `# failed: ${file ? relative(process.cwd(), file) : '?'} (${name}): ${reason || 'no error given'}`,
    );
  return [...new Set(lines)];
}

/** `--tier NAME` or `--tier=NAME` taken out of `args`: the tiers to run (all of them without one). */
function takeTier(args) {
  const at = args.findIndex((arg) => arg === '--tier' || arg.startsWith('--tier='));
  if (at < 0) return { tiers: TIERS, rest: args };
  const name = args[at] === '--tier' ? args[at + 1] : args[at].slice('--tier='.length);
  if (!TIERS.includes(name)) {
    process.stderr.write(`--tier takes one of ${TIERS.join(', ')}, not ${name}\n`);
    process.exit(2);
  }
  return { tiers: [name], rest: args.filter((_, index) => index !== at && !(args[at] === '--tier' && index === at + 1)) };
}

/**
 * Test files at a time, per tier: as the single pool had it (the cores, at least two, so that a file waiting on a
 * database or a child process leaves the other core work), until a measurement shows a tier does better otherwise.
 */
const concurrency = { unit: Math.max(2, availableParallelism()), integration: Math.max(2, availableParallelism()), system: Math.max(2, availableParallelism()) };

/**
 * Tiers whose files share processes: one per file slot, each importing its share of the files one after another.
 * A unit test file alone spends about 0.3 s on its tests and 2 s of CPU on a process of its own, loading tsx and
 * compiling the modules it imports through tsx's loader hooks; sharing takes the unit tier from 71 s to 14 s on
 * two cores. Unit tests hold no database, server or process (scripts/tier-of.mjs), and node's test runner runs
 * one file's tests before the next file's when they share a process; each test still names its own file.
 */
const SHARED_PROCESS_TIERS = new Set(['unit']);

/** What the test standing for a file that could not be loaded in a shared process adds to the file's name. */
const LOADING = ' (loading it)';

/**
 * `files` dealt into `count` modules written in `dir`, each importing its share in order. A file that cannot be
 * loaded becomes a failed test of its own name, so that the files after it in the share still run.
 */
function sharedProcessEntries(files, count, dir) {
  return Array.from({ length: Math.min(count, files.length) }, (_, index) => {
    // `files` are relative to the working directory, as the failure lines name them.
    const share = files.filter((_, at) => at % count === index).map((file) => ({ url: pathToFileURL(resolvePath(file)).href, name: file }));
    const entry = join(dir, `shared-process-${index + 1}.mjs`);
    writeFileSync(
      entry,
      [
        "import { test } from 'node:test';",
        `for (const { url, name } of ${JSON.stringify(share)}) {`,
        '  try {',
        '    await import(url);',
        '  } catch (error) {',
        `    test(\`\${name}${LOADING}\`, () => { throw error; });`,
        '  }',
        '}',
        '',
      ].join('\n'),
    );
    return entry;
  });
}

/**
 * One node test run of `files` (in processes of their own, or sharing `testConcurrency` processes); resolves to
 * its exit code, node's closing counts (tests, pass, fail, ...) and its failures' lines.
 */
function runNode(files, args, testConcurrency, { shareProcesses = false } = {}) {
  const reportDir = mkdtempSync(join(tmpdir(), 'run-tests-'));
  const outcomeFile = join(reportDir, 'outcomes.jsonl');
  const entries = shareProcesses ? sharedProcessEntries(files, testConcurrency, reportDir) : files;
  const child = spawn(
    process.execPath,
    [
      '--import', 'tsx', '--test', `--test-concurrency=${testConcurrency}`,
      ...reporters(args),
      `--test-reporter=${new URL('./outcome-reporter.mjs', import.meta.url).href}`, `--test-reporter-destination=${outcomeFile}`,
      ...args, ...entries,
    ],
    // stdout is read on its way through for the closing counts; colours as a terminal would have them. tsx compiles
    // with tsconfig.tests.json: the console's components are JSX for Preact.
    { stdio: ['inherit', 'pipe', 'inherit'], env: { ...process.env, NODE_ENV: 'test', TSX_TSCONFIG_PATH: new URL('../tsconfig.tests.json', import.meta.url).pathname, ...(process.stdout.isTTY && !process.env.NO_COLOR ? { FORCE_COLOR: '1' } : {}) } },
  );
  const counts = {};
  let partial = '';
  child.stdout.on('data', (chunk) => {
    process.stdout.write(chunk);
    const lines = (partial + chunk).split('\n');
    partial = lines.pop();
    for (const line of lines) {
      // eslint-disable-next-line no-control-regex
      const match = /^(?:# |ℹ )(tests|suites|pass|fail|cancelled|skipped|todo) (\d+)$/.exec(line.replace(/\x1b\[[0-9;]*m/g, ''));
      if (match) counts[match[1]] = Number(match[2]);
    }
  });
  return new Promise((resolve) => {
    child.on('close', (code, signal) => {
      let outcomes = [];
      try {
        outcomes = outcomesOf(readFileSync(outcomeFile, 'utf8'));
      } catch {
        // No run, nothing skipped or failed.
      }
      rmSync(reportDir, { recursive: true, force: true });
      const failed = failedLines(outcomes);
      const summary = [...skippedSummary(outcomes), ...failed];
      if (summary.length > 0) process.stdout.write(`${summary.join('\n')}\n`);
      resolve({ code: signal ? 1 : (code ?? 1), counts, failed });
    });
  });
}

const { tiers, rest: args } = takeTier(process.argv.slice(2));
const explicitFiles = args.some((arg) => arg.endsWith('.ts'));
const files = explicitFiles ? [] : roots.flatMap(findTests).sort();
const byTier = new Map(TIERS.map((tier) => [tier, files.filter((file) => tiers.includes(tier) && tierOf(file) === tier)]));
if (args.includes('--list')) {
  const listed = tiers.length === TIERS.length ? files : [...byTier.values()].flat().sort();
  process.stdout.write(`${listed.join('\n')}\n`);
  process.exit(0);
}
if (explicitFiles) {
  // The files named run as they are, whatever their tiers, at the widest concurrency.
  const { code } = await runNode([], args, Math.max(...Object.values(concurrency)));
  process.exit(code);
}
const results = [];
for (const tier of tiers) {
  const tierFiles = byTier.get(tier);
  // Node given no file looks for tests everywhere itself: an empty tier runs nothing instead.
  if (tierFiles.length === 0) {
    process.stdout.write(`# tier ${tier}: no test files\n`);
    continue;
  }
  process.stdout.write(`# tier ${tier}: ${tierFiles.length} file${tierFiles.length === 1 ? '' : 's'}, ${concurrency[tier]} at a time\n`);
  const started = Date.now();
  const { code, counts, failed } = await runNode(tierFiles, args, concurrency[tier], { shareProcesses: SHARED_PROCESS_TIERS.has(tier) });
  results.push({ tier, code, counts, failed, seconds: Math.round((Date.now() - started) / 1000) });
}
if (results.length > 1) {
  const sum = (key) => results.reduce((total, { counts }) => total + (counts[key] ?? 0), 0);
  const each = results.map(({ tier, code, counts, seconds }) => `${tier} ${counts.pass ?? 0}/${counts.tests ?? 0} in ${seconds} s${code === 0 ? '' : ' FAILED'}`);
  process.stdout.write(`# all tiers: tests ${sum('tests')}, pass ${sum('pass')}, fail ${sum('fail')}, skipped ${sum('skipped')} (${each.join('; ')})\n`);
  const failed = results.flatMap((result) => result.failed);
  if (failed.length > 0) process.stdout.write(`${failed.join('\n')}\n`);
}
process.exit(results.some(({ code }) => code !== 0) ? 1 : 0);
