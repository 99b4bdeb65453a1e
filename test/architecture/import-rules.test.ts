import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { describe, it } from 'node:test';
import { promisify } from 'node:util';
import { projectFile } from '../../src/project-root.js';

/** The folders the rules cover: the server, the contract, the SDK and the console. */
const SCANNED = ['src', 'packages/contract/src', 'packages/client/src', 'console/src', 'console/portal/src'];

interface Violation {
  from: string;
  to: string;
  rule: { name: string };
  cycle?: Array<{ name: string }>;
}

/** dependency-cruiser's report on the tree, with `.dependency-cruiser.cjs` (the table of docs/architecture.md). */
async function cruise(): Promise<{ violations: Violation[]; modules: number; rules: string[]; allowed: number; allowedSeverity: string }> {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    [projectFile('node_modules/dependency-cruiser/bin/dependency-cruise.mjs'), ...SCANNED, '--config', '.dependency-cruiser.cjs', '--output-type', 'json'],
    { cwd: projectFile('.'), maxBuffer: 256 * 1024 * 1024 },
  ).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? '' }));
  const report = JSON.parse(stdout) as {
    summary: { violations: Violation[]; totalCruised: number; ruleSetUsed: { forbidden: Array<{ name: string }>; allowed?: unknown[]; allowedSeverity?: string } };
  };
  const used = report.summary.ruleSetUsed;
  return { violations: report.summary.violations, modules: report.summary.totalCruised, rules: used.forbidden.map((rule) => rule.name), allowed: used.allowed?.length ?? 0, allowedSeverity: used.allowedSeverity ?? 'warn' };
}

describe('import rules (dependency-cruiser)', () => {
  it('when the tree is cruised, then no import cycle, no import the architecture table forbids and none it does not allow is found', async () => {
    const { violations, modules, rules, allowed, allowedSeverity } = await cruise();
    assert.ok(modules > 300, `the cruise saw the tree (${modules} modules)`);
    assert.ok(rules.includes('no-circular'), 'cycles are checked');
    assert.ok(allowed > 20 && allowedSeverity === 'error', `the "May import" column is checked as allow rules (${allowed}, ${allowedSeverity})`);
    const described = violations.map((violation) =>
      violation.rule.name === 'no-circular' ? `cycle: ${[violation.from, ...(violation.cycle ?? []).map((step) => step.name)].join(' -> ')}` : `${violation.rule.name}: ${violation.from} -> ${violation.to}`,
    );
    assert.deepEqual(described, []);
  });
});
