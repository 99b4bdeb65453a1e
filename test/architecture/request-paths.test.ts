import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { after, before, describe, it, mock } from 'node:test';
import { fileURLToPath } from 'node:url';
import { banksPath, LOGIN_PATH, OAUTH_TOKEN_PATH } from '@partner-gateway/contract/paths';
import { projectFile } from '../../src/project-root.js';
import { CLIENT_ASSERTION_TYPE, clientAssertion, dpopProof, registerKeys, testKey, type TestKey } from '../support/oauth-client.js';
import { testBackends } from '../support/test-databases.js';
import { startTestGateway, TEST_ADMIN_TOKEN, type TestGateway } from '../support/test-gateway.js';

/**
 * The map that cannot drift: each path docs/architecture.md lists (a fenced block ```files <name>```) is run once,
 * warmed up, under V8's precise coverage, and the project files whose code ran in it must be exactly the listed ones.
 */

/** The files a path of docs/architecture.md lists: the first word of each line of its ```files <name>``` block. */
function documentedPath(name: string): string[] {
  const text = readFileSync(projectFile('docs/architecture.md'), 'utf8');
  const block = new RegExp('```files ' + name + '\\n([\\s\\S]*?)```').exec(text)?.[1];
  assert.ok(block, `docs/architecture.md has a \`\`\`files ${name} block`);
  return block
    .split('\n')
    .map((line) => line.trim().split(/\s+/)[0] ?? '')
    .filter((path) => path.length > 0)
    .sort();
}

const ROOT = `${projectFile('.')}/`;
const THIS_FILE = fileURLToPath(import.meta.url);

/** A project file as the map names it: the contract's built output by its source. */
function projectPath(url: string): string | undefined {
  if (!url.startsWith('file://')) return undefined;
  const path = fileURLToPath(url);
  if (!path.startsWith(ROOT) || path === THIS_FILE || path.includes('/node_modules/')) return undefined;
  const relative = path.slice(ROOT.length).replace(/^packages\/(\w+)\/dist\/(.*)\.js$/, 'packages/$1/src/$2.ts');
  return /^(src|packages\/\w+\/src)\//.test(relative) ? relative : undefined;
}

/**
 * The project files whose code ran during `run` (its third call: the first two warm caches, connections and
 * lazily built state up), by V8's precise call counts.
 */
async function filesThatRun(session: Session, run: () => Promise<void>): Promise<string[]> {
  await run();
  await run();
  await session.post('Profiler.takePreciseCoverage');
  await run();
  const { result } = await session.post('Profiler.takePreciseCoverage');
  const files = new Set<string>();
  for (const script of result) {
    const path = projectPath(script.url);
    if (path && script.functions.some((fn) => (fn.ranges[0]?.count ?? 0) > 0)) files.add(path);
  }
  return [...files].sort();
}

describe('the request paths docs/architecture.md maps', () => {
  const session = new Session();
  let t: TestGateway;
  before(async () => {
    session.connect();
    await session.post('Profiler.enable');
    await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
    // What runs on its own clock (the audit writer's batches, the replay cache written behind) never runs while a
    // path is measured: the intervals are the test's to tick, and never ticked. Caches live longer than the test,
    // so that every measured call finds them warm whatever the machine's load.
    mock.timers.enable({ apis: ['setInterval'] });
    t = await startTestGateway(testBackends()[0]!, { env: { CACHE_TTL_MS: '60000' } });
  });
  after(async () => {
    await session.post('Profiler.stopPreciseCoverage');
    session.disconnect();
    await t.close();
    mock.timers.reset();
  });

  it('when a partner calls banks with a bearer token, then exactly the files of path 1 run', async () => {
    const partner = await t.addPartner();
    const token = (await t.app.inject({ method: 'POST', url: LOGIN_PATH, payload: partner })).json<{ access_token: string }>().access_token;
    const url = banksPath('provider');
    const ran = await filesThatRun(session, async () => {
      const response = await t.app.inject({ method: 'POST', url, headers: { authorization: `Bearer ${token}` } });
      assert.equal(response.statusCode, 200);
    });
    assert.deepEqual(ran, documentedPath('bearer-banks'));
    // A bound the path grows past only by a decision: the tail keys and the lazy request logger took it to 21.
    assert.ok(ran.length <= 21, `${ran.length} files`);
  });

  it('when a partner gets a DPoP-bound token with private_key_jwt, then exactly the files of path 1c run', async () => {
    const partner = await t.addPartner();
    const key: TestKey = await testKey();
    await registerKeys(t.gateway, partner.login, [key], { authMethods: ['private_key_jwt'] });
    const proofKey = await testKey();
    const tokenUrl = `http://127.0.0.1:8080${OAUTH_TOKEN_PATH}`;
    const ran = await filesThatRun(session, async () => {
      const form = new URLSearchParams({ grant_type: 'client_credentials', client_assertion_type: CLIENT_ASSERTION_TYPE, client_assertion: await clientAssertion(key, partner.login, 'http://127.0.0.1:8080') });
      const response = await t.app.inject({
        method: 'POST',
        url: OAUTH_TOKEN_PATH,
        headers: { 'content-type': 'application/x-www-form-urlencoded', dpop: await dpopProof(proofKey, 'POST', tokenUrl) },
        payload: form.toString(),
      });
      assert.equal(response.statusCode, 200, response.body);
      assert.equal(response.json<{ token_type: string }>().token_type, 'DPoP');
    });
    assert.deepEqual(ran, documentedPath('dpop-client-credentials'));
    // 26 since issue 35: the ES256 signatures moved to node:crypto (src/keys/es256-jwt.ts), a concern of its own.
    // The lazy request logger, which every path runs, took it to 27.
    assert.ok(ran.length <= 27, `${ran.length} files`);
  });

  it('when an operator creates a partner and it logs in, then exactly the server files of path 2 run', async () => {
    let created = 0;
    const ran = await filesThatRun(session, async () => {
      const login = `path-two-${++created}`;
      const password = `a long api password ${created}`;
      const create = await t.admin.inject({
        method: 'POST',
        url: '/admin/v1/partners',
        headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` },
        payload: { login, password, ipAllowlist: ['127.0.0.1'], rewardTypes: ['sbp'] },
      });
      assert.equal(create.statusCode, 201, create.body);
      const first = await t.app.inject({ method: 'POST', url: LOGIN_PATH, payload: { login, password } });
      assert.equal(first.statusCode, 200, first.body);
    });
    assert.deepEqual(ran, documentedPath('partner-created-until-login'));
  });
});
