/**
 * What the partner guide (docs/integration.md) and the README promise, held to the code: the JWE time window
 * against the configured defaults, the login response against its schema, the token claims against a real
 * token (docs/api.md), every file the README and docs/ point at against the repository, and the CLI block
 * (docs/admin.md) against a fresh clone.
 */
import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { decodeJwt } from 'jose';
import { runCli } from '../../src/cli/run-cli.js';
import { loadConfig } from '../../src/config.js';
import { jweWindowText } from '../../src/http/openapi-description.js';
import { TokenResponse } from '@partner-gateway/contract/public-api';
import { projectFile } from '../../src/project-root.js';
import { cliHarness } from '../support/cli-harness.js';
import { testBackends } from '../support/test-databases.js';
import { startTestGateway, TEST_ADMIN_TOKEN, type TestGateway } from '../support/test-gateway.js';

const read = (path: string) => readFileSync(projectFile(path), 'utf8');
/** Markdown text with its line breaks and runs of spaces made single spaces, so a sentence can wrap. */
const flat = (text: string) => text.replace(/\s+/g, ' ');
const guide = read('docs/integration.md');
const readme = read('README.md');
/** The documents the README moved its references into: the partner API, and administration (the CLI). */
const apiReference = read('docs/api.md');
const adminGuide = read('docs/admin.md');
/** Every Markdown document of the repository's own: the README and docs/. */
const documents = ['README.md', ...readdirSync(projectFile('docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)].map((name) => [name, read(name)] as const);
const defaults = loadConfig({});

describe('the partner guide and the README', () => {
  it('state the JWE window of the default configuration: JWE_MAX_AGE seconds in the past to JWE_MAX_FUTURE in the future', () => {
    const window = jweWindowText(defaults.JWE_MAX_AGE, defaults.JWE_MAX_FUTURE);
    for (const [name, text] of [['docs/integration.md', guide], ['README.md', readme]] as const) {
      assert.ok(flat(text).includes(window), `${name} lacks: ${window}`);
      assert.doesNotMatch(flat(text), /seconds before to \d+ seconds after its `iat`/, name);
    }
  });

  it('show a login response with exactly the fields the gateway sends, and the default lifetimes', () => {
    const sample = /^# (\{"access_token".*\})$/m.exec(guide)?.[1];
    assert.ok(sample, 'the guide shows a login response');
    const body = JSON.parse(sample) as Record<string, unknown>;
    assert.deepEqual(Object.keys(body).sort(), Object.keys(TokenResponse.properties).sort());
    assert.equal(body.expires_in, defaults.TOKEN_TTL);
    assert.equal(body.refresh_expires_in, defaults.REFRESH_TTL);
  });

  it('point only at files the repository has, and state no line count a file does not have', () => {
    for (const [name, text] of documents) {
      const base = dirname(projectFile(name));
      for (const [, target] of text.matchAll(/\]\((?!https?:|#|mailto:)([^)#\s]+)[^)]*\)/g)) {
        assert.ok(existsSync(join(base, target!)), `${name} links ${target}, which does not exist`);
      }
      for (const [, path] of text.matchAll(/`((?:scripts|examples|seeds|docs|src)\/[\w./-]+\.\w+)`/g)) {
        assert.ok(existsSync(projectFile(path!)), `${name} names ${path}, which does not exist`);
      }
      for (const [claim, path, count] of text.matchAll(/`([\w./-]+)` is an? (\d+)-line/g)) {
        assert.equal(read(path!).trimEnd().split('\n').length, Number(count), `${name}: ${claim}`);
      }
    }
    for (const example of ['python', 'php', 'java', 'go']) assert.ok(guide.includes(`](../examples/${example}/)`), `the guide links examples/${example}`);
  });

  it('link only to sections the documents have (as GitHub makes heading anchors)', () => {
    /** GitHub's anchor of a heading: lower case, punctuation but `-` and `_` dropped, spaces made `-`. */
    const slug = (heading: string) => heading.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
    const anchors = (path: string) => new Set([...read(path).matchAll(/^#{1,6} (.+)$/gm)].map(([, heading]) => slug(heading!.replace(/`/g, ''))));
    for (const [name, text] of documents) {
      for (const [link, target, fragment] of text.matchAll(/\]\((?!https?:|mailto:)([^)#\s]*)#([^)\s]+)\)/g)) {
        const path = target ? relative(projectFile('.'), join(dirname(projectFile(name)), target!)) : name;
        if (!path.endsWith('.md')) continue;
        assert.ok(anchors(path).has(fragment!), `${name}: ${link} names no heading of ${path}`);
      }
    }
  });
});

describe('the README and docs/ against a running gateway', () => {
  let t: TestGateway;
  let adminUrl: string;
  before(async () => {
    t = await startTestGateway(testBackends()[0]!);
    adminUrl = await t.admin.listen({ host: '127.0.0.1', port: 0 });
  });
  after(() => t.close());

  it('lists every claim of an issued access token', async () => {
    const partner = await t.addPartner();
    const login = await t.app.inject({ method: 'POST', url: '/api/v1/login/', payload: { login: partner.login, password: partner.password } });
    const claims = Object.keys(decodeJwt(login.json().access_token));
    const paragraph = flat(/\*\*Access tokens\*\*[^]*?\n\n/.exec(apiReference)?.[0] ?? '');
    assert.ok(claims.includes('sid') && claims.includes('gen'));
    for (const claim of claims) assert.ok(paragraph.includes(`\`${claim}\``), `docs/api.md's token claims lack ${claim}`);
  });

  it('has a CLI block that works in a fresh clone: no unset variable, only files in the repository, bank import then bank list', async () => {
    const block = /```sh\n(npx partner-gateway --help\n[^]*?)```/.exec(adminGuide)?.[1];
    assert.ok(block, 'the CLI block');
    const commands = block.split('\n').map((line) => line.replace(/\s+#.*$/, '').trim()).filter(Boolean);
    for (const [, name] of block.matchAll(/\$\{?([A-Za-z_]\w*)/g)) {
      assert.match(block, new RegExp(`(^|\\s)(${name}=|read\\s+(-\\S+\\s+)*${name}\\b)`, 'm'), `$${name} is used but never set`);
    }
    const env = { ADMIN_URL: adminUrl, ADMIN_TOKEN: TEST_ADMIN_TOKEN };
    for (const command of commands.filter((line) => /^npx partner-gateway bank (import|list)\b/.test(line))) {
      const args = command.split(/\s+/).slice(2).map((arg) => (/\.(csv|json|xml)$/.test(arg) ? projectFile(arg) : arg));
      for (const file of args.filter((arg) => arg.startsWith('/'))) {
        assert.ok(existsSync(file) && !relative(projectFile('.'), file).startsWith('..'), `${command}: the file is in the repository`);
      }
      const harness = cliHarness(env);
      assert.equal(await runCli(args, harness.io), 0, `${command}: ${harness.stderr()}`);
    }
    assert.ok(commands.some((line) => line.startsWith('npx partner-gateway bank import ')), 'bank import');
    assert.ok(commands.some((line) => line === 'npx partner-gateway bank list'), 'bank list');
  });
});
