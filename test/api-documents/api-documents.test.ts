import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { promisify } from 'node:util';
import { loadConfig, publicUrl } from '../../src/config.js';
import { projectFile } from '../../src/project-root.js';
import { testBackends } from '../support/test-databases.js';
import { startTestGateway, TEST_ADMIN_TOKEN, type TestGateway } from '../support/test-gateway.js';
import { dereferenced, type Schema } from './document-requests.js';

const ADMIN = { authorization: `Bearer ${TEST_ADMIN_TOKEN}` };
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE'] as const;

interface Operation {
  operationId?: string;
  security?: unknown[];
  responses: Record<string, { headers?: Record<string, unknown> }>;
}
type Document = { servers: Array<{ url: string }>; security?: unknown[]; paths: Record<string, Record<string, Operation>>; components: { securitySchemes: Record<string, unknown>; schemas?: Record<string, Schema> } };

function operations(doc: Document): Array<[string, string, Operation]> {
  return Object.entries(doc.paths).flatMap(([path, byMethod]) => Object.entries(byMethod).map(([method, operation]) => [path, method, operation] as [string, string, Operation]));
}

describe('the OpenAPI documents of both listeners', () => {
  let t: TestGateway;
  let publicDoc: Document;
  let adminDoc: Document;
  before(async () => {
    t = await startTestGateway(testBackends()[0]!, { env: { PUBLIC_URL: 'https://partners.example.com/' } });
    publicDoc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    adminDoc = (await t.admin.inject({ method: 'GET', url: '/openapi.json' })).json();
  });
  after(() => t.close());

  it('lint with no error under Redocly recommended rules (trailing slashes and licence aside, see redocly.yaml)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'openapi-lint-'));
    const files = [join(dir, 'openapi.json'), join(dir, 'admin-openapi.json')];
    writeFileSync(files[0]!, JSON.stringify(publicDoc));
    writeFileSync(files[1]!, JSON.stringify(adminDoc));
    const cli = createRequire(import.meta.url).resolve('@redocly/cli/bin/cli.js');
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [cli, 'lint', '--config', projectFile('redocly.yaml'), ...files], {
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      maxBuffer: 16 * 1024 * 1024,
    }).catch((error: { stdout: string; stderr: string }) => assert.fail(`redocly lint failed:\n${error.stdout}\n${error.stderr}`));
    // The linter exits non-zero on any error (the promise then rejects above); it says so when both are valid.
    assert.match(`${stdout}${stderr}`, /Your API descriptions are valid/);
  });

  it('gives every operation of both documents a unique operationId', () => {
    const ids = [...operations(publicDoc), ...operations(adminDoc)].map(([path, method, operation]) => operation.operationId ?? `${method} ${path} has none`);
    assert.deepEqual(ids.filter((id) => id.includes(' has none')), []);
    assert.equal(new Set(ids).size, ids.length);
  });

  it('names PUBLIC_URL as the public server, and says which operations need no credential', () => {
    assert.deepEqual(publicDoc.servers, [{ url: 'https://partners.example.com' }]);
    for (const path of ['/api/v1/login/', '/api/v1/token/refresh/']) assert.deepEqual(publicDoc.paths[path]!.post!.security, [], path);
    for (const path of ['/.well-known/jwks.json', '/healthz', '/readyz']) assert.deepEqual(publicDoc.paths[path]!.get!.security, [], path);
    assert.deepEqual(publicDoc.paths['/api/v1/logout/']!.post!.security, [{ bearerAuth: [] }, { dpopAuth: [] }]);
  });

  it('documents the OAuth endpoints: form bodies, the OAuth error shape, the metadata, and DPoP at banks', () => {
    // Each named schema read whole, as a client resolving its $ref does.
    const doc = dereferenced(publicDoc);
    for (const path of ['/api/v1/oauth/token', '/api/v1/oauth/introspect', '/api/v1/oauth/revoke']) {
      const operation = doc.paths[path]!.post! as Operation & { requestBody?: { content: Record<string, unknown> } };
      assert.deepEqual(Object.keys(operation.requestBody?.content ?? {}), ['application/x-www-form-urlencoded'], path);
      const refusal = (operation.responses['401'] as { content?: Record<string, { schema: { properties: Record<string, unknown> } }> }).content!['application/json']!.schema;
      assert.deepEqual(Object.keys(refusal.properties).sort(), ['description_status', 'error', 'error_description'], path);
    }
    assert.ok(doc.paths['/.well-known/oauth-authorization-server']!.get);
    assert.deepEqual(doc.paths['/partner/provider/sbp/banks/']!.post!.security, [{ bearerAuth: [] }, { dpopAuth: [] }, {}]);
    assert.equal((publicDoc.components.securitySchemes.dpopAuth as { scheme: string }).scheme, 'DPoP');
  });

  it('documents login and refresh bodies as required, non-empty, closed objects and useAuthByCert as Y or N', () => {
    // Each named schema read whole, as a client resolving its $ref does.
    const doc = dereferenced(publicDoc);
    const body = (path: string) => (doc.paths[path]!.post as unknown as { requestBody: { required: boolean; content: Record<string, { schema: Record<string, unknown> }> } }).requestBody;
    for (const [path, fields] of [['/api/v1/login/', ['login', 'password']], ['/api/v1/token/refresh/', ['refresh_token']]] as const) {
      const schema = body(path).content['application/json']!.schema as { required: string[]; additionalProperties: boolean; properties: Record<string, { minLength: number }> };
      assert.deepEqual(schema.required, fields, path);
      assert.equal(schema.additionalProperties, false, path);
      for (const field of fields) assert.equal(schema.properties[field]!.minLength, 1, `${path} ${field}`);
    }
    const banks = doc.paths['/partner/provider/sbp/banks/']!.post as unknown as { parameters: Array<{ name: string; schema: { enum?: string[] } }> };
    assert.deepEqual(banks.parameters.find((parameter) => parameter.name === 'useAuthByCert')!.schema.enum, ['Y', 'N']);
  });

  it('documents the headers clients act on: WWW-Authenticate, Retry-After, Cache-Control', () => {
    const login = publicDoc.paths['/api/v1/login/']!.post!;
    assert.ok(login.responses['200']!.headers?.['Cache-Control']);
    assert.ok(login.responses['401']!.headers?.['WWW-Authenticate']);
    assert.ok(login.responses['429']!.headers?.['Retry-After']);
    assert.ok(login.responses['503']!.headers?.['Retry-After']);
    assert.ok(publicDoc.paths['/partner/provider/sbp/banks/']!.post!.responses['401']!.headers?.['WWW-Authenticate']);
  });

  it('serves the admin document and its reference page without the token, with a token or the console session on every operation but the sign-in options', async () => {
    assert.deepEqual(adminDoc.security, [{ adminToken: [] }, { consoleSession: [] }]);
    assert.deepEqual(Object.keys(adminDoc.components.securitySchemes), ['adminToken', 'consoleSession']);
    assert.deepEqual(adminDoc.components.securitySchemes.consoleSession, { type: 'apiKey', in: 'cookie', name: '__Host-partner-gateway-session', description: "The console's single sign-on session; changes also send X-CSRF-Token" });
    assert.deepEqual(
      operations(adminDoc).filter(([, , operation]) => operation.security !== undefined).map(([path, method, operation]) => [method, path, operation.security]),
      [['get', '/admin/v1/sign-in', []]],
    );
    assert.ok(operations(adminDoc).length >= 14);
    assert.ok(operations(adminDoc).every(([path]) => path.startsWith('/admin/v1/')));
    const page = await t.admin.inject({ method: 'GET', url: '/docs' });
    assert.equal(page.statusCode, 200);
    assert.match(page.headers['content-type'] as string, /text\/html/);
    // Every operation the document describes still needs the token.
    assert.equal((await t.admin.inject({ method: 'GET', url: '/admin/v1/partners' })).statusCode, 401);
    assert.equal((await t.admin.inject({ method: 'POST', url: '/openapi.json' })).statusCode, 401);
  });

  it('matches the committed documents (run scripts/write-openapi.ts after changing a route)', async () => {
    const t2 = await startTestGateway(testBackends()[0]!, { seedBanks: false });
    try {
      const admin = (await t2.admin.inject({ method: 'GET', url: '/openapi.json' })).json();
      assert.deepEqual(admin, JSON.parse(readFileSync(projectFile('admin-openapi.json'), 'utf8')));
    } finally {
      await t2.close();
    }
  });

  it('answers 405 with Allow and the JSON error body to every method a known path does not serve, on both listeners', async () => {
    for (const [app, doc, headers] of [[t.app, publicDoc, {}], [t.admin, adminDoc, ADMIN]] as const) {
      for (const [path, byMethod] of Object.entries(doc.paths)) {
        const url = path.replace(/\{[^}]+\}/g, 'x');
        const served = Object.keys(byMethod).map((method) => method.toUpperCase());
        for (const method of METHODS.filter((candidate) => !served.includes(candidate) && !(candidate === 'HEAD' && served.includes('GET')))) {
          // light-my-request 6.6 (pinned for Node 20) types no TRACE method, but sends any.
          const response = await app.inject({ method: method as 'GET', url, headers });
          assert.equal(response.statusCode, 405, `${method} ${url}`);
          assert.equal(response.headers.allow, served.filter((name) => METHODS.includes(name as never)).concat(served.includes('GET') ? ['HEAD'] : []).sort((a, b) => METHODS.indexOf(a as never) - METHODS.indexOf(b as never)).join(', '), `${method} ${url}`);
          if (method !== 'HEAD') assert.equal(typeof response.json().description_status, 'string', `${method} ${url}`);
        }
      }
    }
  });

  it('refuses a body with a __proto__ or constructor key, saying so', async () => {
    for (const payload of ['{"login":"a","password":"b","__proto__":{"x":1}}', '{"constructor":{"prototype":{"x":1}}}']) {
      const response = await t.app.inject({ method: 'POST', url: '/api/v1/login/', headers: { 'content-type': 'application/json' }, payload });
      assert.equal(response.statusCode, 400);
      assert.match(response.json().description_status, /__proto__ or constructor/);
    }
  });
});

describe('PUBLIC_URL', () => {
  it('defaults to the loopback address of PORT, and is required in production', () => {
    assert.equal(publicUrl(loadConfig({ PORT: '9000' })), 'http://127.0.0.1:9000');
    assert.throws(() => loadConfig({ NODE_ENV: 'production' }), /PUBLIC_URL is required/);
    assert.throws(() => loadConfig({ PUBLIC_URL: 'partners.example.com' }), /PUBLIC_URL/);
    assert.equal(loadConfig({ NODE_ENV: 'production', ALLOW_EMBEDDED_DATABASE: 'true', PUBLIC_URL: 'https://partners.example.com' }).PUBLIC_URL, 'https://partners.example.com');
  });
});
