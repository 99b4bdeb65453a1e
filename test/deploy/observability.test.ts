/**
 * The dashboard and alert rules of deploy/observability/ against the gateway: Prometheus's own checker accepts
 * the rules (`promtool check rules`, Debian's prometheus package; outside CI a missing promtool skips that
 * test, under CI it fails), every metric an expression names is one a gateway exports on its /metrics, and
 * every alert has its runbook section in docs/operations.md.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { parse } from 'yaml';
import { projectFile } from '../../src/project-root.js';
import { testBackends } from '../support/test-databases.js';
import { startTestGateway, TEST_ADMIN_TOKEN, type TestGateway } from '../support/test-gateway.js';

const PROMTOOL = ['/usr/bin/promtool', '/usr/local/bin/promtool'].find((path) => spawnSync(path, ['--version']).status === 0);
const ON_CI = process.env.CI === 'true';

/** Series Prometheus itself makes for every scrape target: no exporter has them. */
const PROMETHEUS_SERIES = new Set(['up']);

interface Rule {
  alert?: string;
  record?: string;
  expr: string;
}
const rules = (parse(readFileSync(projectFile('deploy/observability/alerts.yaml'), 'utf8')) as { groups: Array<{ rules: Rule[] }> }).groups.flatMap((group) => group.rules);
const dashboard = JSON.parse(readFileSync(projectFile('deploy/observability/dashboard.json'), 'utf8')) as { panels: Array<{ title: string; targets?: Array<{ expr: string }> }> };
const expressions = [
  ...rules.map((rule) => ({ where: `alert ${rule.alert ?? rule.record}`, expr: rule.expr })),
  ...dashboard.panels.flatMap((panel) => (panel.targets ?? []).map((target) => ({ where: `panel "${panel.title}"`, expr: target.expr }))),
];

/**
 * The metric names of a PromQL expression: identifiers that are neither a function, a keyword, a label (inside
 * braces or a by/without list), a string, a template (`{{ $labels.x }}`) nor a duration.
 */
function metricNames(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^{}]*\}/g, '')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, '')
    .replace(/\[[^\]]*\]/g, '');
  return [...bare.matchAll(/(?<![\w.$])([a-zA-Z_:][\w:]*)(?![\w:])(?!\s*\()/g)]
    .map(([, name]) => name!)
    .filter((name) => !['and', 'or', 'unless', 'bool', 'offset', 'by', 'without', 'on', 'ignoring', 'le', 'inf', 'nan'].includes(name.toLowerCase()));
}

describe('the dashboard and alert rules (deploy/observability/)', () => {
  let t: TestGateway;
  let exported: Set<string>;
  before(async () => {
    t = await startTestGateway(testBackends()[0]!);
    const scrape = await t.admin.inject({ method: 'GET', url: '/metrics', headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } });
    assert.equal(scrape.statusCode, 200);
    exported = new Set();
    for (const [, name, type] of scrape.body.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
      exported.add(name!);
      if (type === 'histogram' || type === 'summary') for (const suffix of ['_bucket', '_sum', '_count']) exported.add(`${name}${suffix}`);
    }
  });
  after(() => t?.close());

  it('reads the names out of PromQL as Prometheus would', () => {
    assert.deepEqual(metricNames('sum by (le) (rate(a_b_bucket{job="x", listener=~"p.."}[5m])) / on(job) b > 0.5 and absent(up{job="y"} == 1)'), ['a_b_bucket', 'b', 'up']);
  });

  it('names only metrics the gateway exports', () => {
    assert.ok(exported.has('partner_gateway_http_requests_total'), 'the scrape has the gateway\'s metrics');
    assert.ok(expressions.length > 20);
    const unknown = expressions.flatMap(({ where, expr }) => metricNames(expr).filter((name) => !exported.has(name) && !PROMETHEUS_SERIES.has(name)).map((name) => `${where}: ${name}`));
    assert.deepEqual(unknown, []);
  });

  it('has a runbook section in docs/operations.md for every alert, which the alert links', () => {
    const runbook = readFileSync(projectFile('docs/operations.md'), 'utf8');
    for (const rule of rules.filter((candidate) => candidate.alert)) {
      assert.match(runbook, new RegExp(`^### ${rule.alert}$`, 'm'), `docs/operations.md has no section for ${rule.alert}`);
      assert.equal((rule as { annotations?: { runbook?: string } }).annotations?.runbook, `docs/operations.md#${rule.alert!.toLowerCase()}`);
    }
  });

  it('passes promtool check rules', { skip: !PROMTOOL && !ON_CI ? 'promtool not installed (apt-get install prometheus); required when CI=true' : false }, () => {
    assert.ok(PROMTOOL, 'CI=true but promtool is missing: apt-get install prometheus');
    const check = spawnSync(PROMTOOL!, ['check', 'rules', projectFile('deploy/observability/alerts.yaml')], { encoding: 'utf8' });
    assert.equal(check.status, 0, `${check.stdout}\n${check.stderr}`);
  });
});
