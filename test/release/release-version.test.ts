/**
 * One version: package.json's is the gateway's, and everything that states a version says the same. The
 * packages and their pins on each other, both committed OpenAPI documents, a running gateway (`/version`, both
 * served documents), both CLIs, the tarball names the guides give, and the changelog's release entry.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { runPartnerCli } from '@partner-gateway/client/cli/run-partner-cli';
import { runCli } from '../../src/cli/run-cli.js';
import { projectFile } from '../../src/project-root.js';
import { cliHarness } from '../support/cli-harness.js';
import { testBackends } from '../support/test-databases.js';
import { startTestGateway, type TestGateway } from '../support/test-gateway.js';

/** What these files hold that is read here: a package's version and dependencies, a document's info. */
type Versioned = { version: string; dependencies: Record<string, string>; info: { version: string } };
const json = (path: string) => JSON.parse(readFileSync(projectFile(path), 'utf8')) as Versioned;
const root = json('package.json');
const { version } = root;

describe('the release version', () => {
  it('is semantic, and the contract and the client carry it, pinned exactly to each other and by the gateway', () => {
    assert.match(version, /^\d+\.\d+\.\d+(-[\w.]+)?$/);
    const [contract, client] = [json('packages/contract/package.json'), json('packages/client/package.json')];
    assert.deepEqual([contract.version, client.version], [version, version]);
    assert.equal(client.dependencies['@partner-gateway/contract'], version);
    assert.equal(root.dependencies['@partner-gateway/contract'], version);
    assert.equal(root.dependencies['@partner-gateway/client'], version);
  });

  it('is the info.version of both committed OpenAPI documents', () => {
    assert.equal(json('openapi.json').info.version, version);
    assert.equal(json('admin-openapi.json').info.version, version);
  });

  it('names the tarballs the guides tell partners to install', () => {
    for (const path of ['README.md', 'docs/integration.md', 'packages/client/README.md', 'packages/contract/README.md']) {
      for (const [name, stated] of readFileSync(projectFile(path), 'utf8').matchAll(/partner-gateway-(?:contract|client)-(\d+\.\d+\.\d+[\w.-]*?)\.tgz/g)) {
        assert.equal(stated, version, `${path}: ${name}`);
      }
    }
  });

  it('has its entry in CHANGELOG.md (Keep a Changelog), below Unreleased', () => {
    const changelog = readFileSync(projectFile('CHANGELOG.md'), 'utf8');
    const headings = [...changelog.matchAll(/^## (.*)$/gm)].map(([, heading]) => heading!);
    assert.equal(headings[0], '[Unreleased]');
    for (const heading of headings.slice(1)) assert.match(heading, /^\[\d+\.\d+\.\d+[\w.-]*\] - \d{4}-\d{2}-\d{2}$/, heading);
    assert.ok(headings.some((heading) => heading.startsWith(`[${version}] - `)), `CHANGELOG.md has no entry for ${version}`);
    for (const [, section] of changelog.matchAll(/^### (.*)$/gm)) assert.ok(['Added', 'Changed', 'Deprecated', 'Removed', 'Fixed', 'Security'].includes(section!), section);
  });

  it('is what both CLIs print for --version', async () => {
    for (const run of [runCli, runPartnerCli]) {
      const harness = cliHarness({});
      assert.equal(await run(['--version'], harness.io), 0);
      assert.equal(harness.stdout(), `${version}\n`);
    }
  });

  describe('on a running gateway', () => {
    let t: TestGateway;
    let publicUrl: string;
    let adminUrl: string;
    before(async () => {
      t = await startTestGateway(testBackends()[0]!);
      publicUrl = await t.app.listen({ host: '127.0.0.1', port: 0 });
      adminUrl = await t.admin.listen({ host: '127.0.0.1', port: 0 });
    });
    after(() => t.close());

    it('answers GET /version with it, and both served OpenAPI documents state it', async () => {
      const answer = await fetch(`${publicUrl}/version`);
      assert.equal(answer.status, 200);
      assert.deepEqual(await answer.json(), { version });
      for (const base of [publicUrl, adminUrl]) assert.equal(((await (await fetch(`${base}/openapi.json`)).json()) as { info: { version: string } }).info.version, version, base);
    });
  });
});
