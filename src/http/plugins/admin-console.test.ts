import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import Fastify, { type FastifyInstance } from 'fastify';
import { errors, texts } from '../../errors.js';
import type { Actor } from '../../request-context.js';
import { testBackends } from '../../../test/support/test-databases.js';
import { startTestGateway, TEST_ADMIN_TOKEN, type TestGateway } from '../../../test/support/test-gateway.js';
import { adminAuth } from './admin-auth.js';
import { adminConsole, CONSOLE_CSP } from './admin-console.js';
import { errorHandler } from './error-handler.js';
import { requestContext } from './request-context.js';

const TOKEN = 'console-test-admin-token-0123456789abcdef';

async function consoleApp(root: string): Promise<FastifyInstance> {
  const app = Fastify();
  await app.register(errorHandler, { validation: 'detailed' });
  await app.register(requestContext, { baseUrl: 'http://127.0.0.1', auditTrail: { full: () => false } });
  // No operator exists here: every other credential is refused as the gateway refuses an unknown token.
  const refuse = async (): Promise<never> => {
    throw errors.adminUnauthorized();
  };
  // The configured ADMIN_TOKEN is recognized after the (here absent) lockout, through `fixed`.
  const withToken = async (token: string, _address: string, fixed?: (token: string) => Actor | undefined): Promise<Actor> => fixed?.(token) ?? refuse();
  await app.register(adminAuth, { adminToken: TOKEN, operators: { withToken, withSession: refuse } });
  app.get('/admin/v1/secret', async () => ({ secret: true }));
  await app.register(adminConsole, { root });
  await app.ready();
  return app;
}

describe('admin console static files', () => {
  let app: FastifyInstance;
  before(async () => {
    const root = mkdtempSync(join(tmpdir(), 'console-'));
    mkdirSync(join(root, 'assets'));
    writeFileSync(join(root, 'index.html'), '<!doctype html><title>Admin console</title><script type="module" src="/assets/app-1a2b3c.js"></script>');
    writeFileSync(join(root, 'assets', 'app-1a2b3c.js'), 'console.log("console")');
    writeFileSync(join(root, 'assets', '.hidden'), 'nope');
    writeFileSync(join(root, 'secret.txt'), 'outside assets');
    app = await consoleApp(root);
  });
  after(() => app.close());

  it('serves the page at / without the token, with a strict CSP and revalidation on every load', async () => {
    const page = await app.inject({ method: 'GET', url: '/' });
    assert.equal(page.statusCode, 200);
    assert.match(String(page.headers['content-type']), /^text\/html/);
    assert.match(page.body, /<title>Admin console<\/title>/);
    assert.equal(page.headers['content-security-policy'], CONSOLE_CSP);
    assert.match(CONSOLE_CSP, /script-src 'self'/);
    assert.doesNotMatch(CONSOLE_CSP, /unsafe-inline|unsafe-eval/);
    assert.equal(page.headers['cache-control'], 'no-cache');
    assert.equal(page.headers['x-frame-options'], 'DENY');
    assert.equal((await app.inject({ method: 'HEAD', url: '/' })).statusCode, 200);
  });

  it('serves the hashed assets without the token, cached for good', async () => {
    const asset = await app.inject({ method: 'GET', url: '/assets/app-1a2b3c.js' });
    assert.equal(asset.statusCode, 200);
    assert.match(String(asset.headers['content-type']), /javascript/);
    assert.match(String(asset.headers['cache-control']), /immutable/);
    assert.equal((await app.inject({ method: 'GET', url: '/assets/missing.js' })).statusCode, 404);
  });

  it('serves nothing else: no dot files, no path out of assets/, no other method', async () => {
    for (const url of ['/assets/.hidden', '/assets/../secret.txt', '/assets/%2e%2e/secret.txt', '/assets/..%2fsecret.txt', '/secret.txt']) {
      const response = await app.inject({ method: 'GET', url });
      assert.notEqual(response.statusCode, 200, url);
      assert.doesNotMatch(response.body, /outside assets|nope/, url);
    }
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH'] as const) {
      assert.equal((await app.inject({ method, url: '/' })).statusCode, 401, method);
      assert.equal((await app.inject({ method, url: '/assets/app-1a2b3c.js' })).statusCode, 401, method);
    }
  });

  it('serves nothing out of assets/ over a real socket either, where the path is not normalized first', async () => {
    const base = await app.listen({ host: '127.0.0.1', port: 0 });
    for (const path of ['/assets/../secret.txt', '/assets/%2e%2e/secret.txt', '/assets/..%2fsecret.txt', '/assets/../admin/v1/secret']) {
      const { status, body } = await rawGet(base, path);
      assert.notEqual(status, 200, path);
      assert.doesNotMatch(body, /outside assets|secret.*true/, path);
    }
  });

  it('keeps every /admin/v1/* route behind the token, however the path is spelled', async () => {
    for (const url of ['/admin/v1/secret', '/assets/../admin/v1/secret', '/admin/v1/secret?x=/assets/', '//admin/v1/secret', '/admin/v1/secret/']) {
      const response = await app.inject({ method: 'GET', url });
      assert.doesNotMatch(response.body, /secret.*true/, url);
      assert.ok([401, 404].includes(response.statusCode), `${url}: ${response.statusCode}`);
    }
    assert.equal((await app.inject({ method: 'GET', url: '/admin/v1/secret' })).statusCode, 401);
    assert.equal((await app.inject({ method: 'GET', url: '/admin/v1/secret', headers: { authorization: `Bearer ${TOKEN}` } })).statusCode, 200);
  });

  it('says how to build the console when it has not been built', async () => {
    const unbuilt = await consoleApp(mkdtempSync(join(tmpdir(), 'console-empty-')));
    const page = await unbuilt.inject({ method: 'GET', url: '/' });
    assert.equal(page.statusCode, 503);
    assert.match(page.body, /npm run build/);
    await unbuilt.close();
  });
});

describe('the real admin app with the console', () => {
  let t: TestGateway;
  before(async () => {
    t = await startTestGateway(testBackends()[0]!);
  });
  after(() => t.close());

  it('answers 401 without the token on every /admin/v1/* route and method but the sign-in options, and the console page needs none', async () => {
    const routes = listRoutes(t.admin);
    // What the sign-in page asks before anyone is signed in (whether single sign-on is offered): public, read only.
    const publicRoutes = new Set(t.admin.adminRoutes.filter((route) => route.permission === 'public').map((route) => `${route.method} ${route.url}`));
    assert.deepEqual([...publicRoutes].filter((route) => route.includes('/admin/')).sort(), ['GET /admin/v1/sign-in', 'HEAD /admin/v1/sign-in']);
    const adminRoutes = routes.filter((route) => route.path.startsWith('/admin/'));
    for (const known of ['/admin/v1/partners', '/admin/v1/partners/:login', '/admin/v1/banks/import', '/admin/v1/keys/rotate', '/admin/v1/audit']) {
      assert.ok(adminRoutes.some((route) => route.path === known), `${known} among ${adminRoutes.map((route) => route.path).join(' ')}`);
    }
    // Each request from an address of its own: some 2 000 wrong credentials from one address would be locked out (429).
    let sent = 0;
    for (const { path, methods } of adminRoutes) {
      const url = path.replace(/:[A-Za-z]+/g, 'x').replace(/\*$/, 'x');
      for (const method of methods) {
        if (publicRoutes.has(`${method} ${path}`)) continue;
        for (const headers of [{}, { authorization: 'Bearer wrong-token-wrong-token-wrong-token' }]) {
          sent++;
          const response = await t.admin.inject({ method: method as 'GET', url, headers, remoteAddress: `10.9.${sent >> 8}.${sent & 255}` });
          assert.equal(response.statusCode, 401, `${method} ${url}`);
          if (method !== 'HEAD') assert.deepEqual(response.json(), { description_status: texts.unauthorized });
        }
      }
    }
    const page = await t.admin.inject({ method: 'GET', url: '/' });
    assert.ok([200, 503].includes(page.statusCode), 'served (or the build hint) without a token');
    assert.equal((await t.admin.inject({ method: 'GET', url: '/', headers: { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } })).statusCode, page.statusCode);
  });

  it('is not served on the public port', async () => {
    assert.equal((await t.app.inject({ method: 'GET', url: '/' })).statusCode, 404);
    assert.equal((await t.app.inject({ method: 'GET', url: '/assets/index.js' })).statusCode, 404);
  });
});

/** A GET with the path sent exactly as given (fetch would resolve the dot segments). */
function rawGet(base: string, path: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(`${base}${path}`, { method: 'GET' }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
    });
    request.path = path;
    request.on('error', reject);
    request.end();
  });
}

/** Every route of an app and its methods, read from Fastify's route tree. */
function listRoutes(app: FastifyInstance): Array<{ path: string; methods: string[] }> {
  const routes: Array<{ path: string; methods: string[] }> = [];
  const stack: string[] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    // Method names may hold a hyphen (M-SEARCH): every method a path does not serve is routed to a 405.
    const match = /^([│├└─ ]*)(\S.*?)(?: \(([A-Z, -]+)\))?$/.exec(line);
    if (!match) continue;
    const depth = match[1]!.length / 4;
    stack.length = depth;
    stack.push(match[2]!);
    if (match[3]) routes.push({ path: stack.join(''), methods: match[3].split(', ') });
  }
  return routes;
}
