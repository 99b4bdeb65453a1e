import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { testBackends } from '../support/test-databases.js';
import { startTestGateway, TEST_ADMIN_TOKEN, type TestGateway } from '../support/test-gateway.js';
import { dereferenced, requests, type Document, type GeneratedRequest, type Operation } from './document-requests.js';

/**
 * The documents are as strict as the server: every request a document calls valid (its parameters, body and
 * form all within their schemas) is never refused for its shape (400, 422) nor fails (5xx), and every method a
 * documented path does not serve, QUERY and methods nobody knows included, is answered 405 with `Allow`. What
 * JSON Schema cannot say is listed in `UNEXPRESSIBLE` below, each with the rule the document states in words.
 */

interface Answer {
  status: number;
  body: { description_status?: string; error?: string; errors?: Array<{ field?: string; message: string }> };
}

/**
 * The refusals of valid-shaped requests that no schema can express, by operation: each is a rule between
 * several values or about what a value means (its cryptography, its address, another request's state), and
 * each is stated in the operation's description.
 */
const UNEXPRESSIBLE: Record<string, (request: GeneratedRequest, answer: Answer) => boolean> = {
  // The seed's banks call: without a token, all three query parameters, partnerPassword a compact JWE and
  // useAuthByCert=Y, checked in the documented order (422 missing, 422 not encrypted, 422 useAuthByCert).
  listBanks: (request, answer) => answer.status === 422 && request.headers.authorization === undefined,
  // An allowlist entry is an address or a CIDR without host bits (one function decides, normalizeCidr).
  createPartner: (_request, answer) => onlyFields(answer, /^ipAllowlist\[\d+\]$/),
  updatePartner: (_request, answer) => onlyFields(answer, /^ipAllowlist\[\d+\]$/),
  // A key must be a valid public key; a jwksUri must be fetched, from a public address, as a JWK Set.
  setPartnerJwks: (_request, answer) => onlyFields(answer, /^(keys\[\d+\].*|jwksUri)$/),
  // A certificate must parse as one PEM certificate, unexpired; a subject DN as an RFC 4514 name.
  setPartnerCertificates: (_request, answer) => onlyFields(answer, /^(certificates.*|subjectDn)$/),
  // `to` must be later than `from`.
  exportAudit: (_request, answer) => onlyFields(answer, /^to$/) && answer.body.errors?.[0]?.message === 'must be later than from',
  // An import file's rows are read and checked by the importer (JSON, CSV or ED807), not by a schema.
  importBanks: (_request, answer) => answer.status === 422,
  // Each BIC at most once in a list.
  replaceBanks: (_request, answer) => answer.status === 422 && (answer.body.errors ?? []).every((problem) => /^duplicates BIC/.test(problem.message)),
};

function onlyFields(answer: Answer, field: RegExp): boolean {
  return answer.status === 422 && (answer.body.errors ?? []).length > 0 && answer.body.errors!.every((problem) => field.test(problem.field ?? ''));
}

async function checkValid(app: FastifyInstance, operation: Operation, request: GeneratedRequest): Promise<void> {
  const response = await app.inject({ method: request.method as 'GET', url: request.url, headers: request.headers, ...(request.payload !== undefined ? { payload: request.payload } : {}) });
  const where = `${operation.operationId} ${request.method} ${request.url} ${request.payload ?? ''} -> ${response.statusCode} ${response.body.slice(0, 300)}`;
  assert.ok(response.statusCode < 500, `no 5xx: ${where}`);
  if (response.statusCode !== 400 && response.statusCode !== 422) return;
  const answer: Answer = { status: response.statusCode, body: response.json() };
  assert.ok(UNEXPRESSIBLE[operation.operationId]?.(request, answer), `a request the document calls valid is not refused: ${where}`);
}

/** Every method Fastify can route (http.METHODS but CONNECT, whose request line names no path), and some nobody knows. */
const ROUTABLE = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE', 'QUERY', 'PROPFIND', 'SEARCH', 'REPORT', 'LOCK', 'MKCOL', 'PURGE', 'LINK'];
const UNKNOWN = ['FOO', 'BREW', 'XQUERY'];

/** One request over real HTTP (light-my-request never meets Node's parser, which is what refuses an unknown method). */
function send(port: number, method: string, path: string, headers: Record<string, string>): Promise<{ status: number; allow: string | undefined; body: string }> {
  return new Promise((resolve, reject) => {
    // A small JSON body with its length (Node sends DELETE, OPTIONS and TRACE bodies without one otherwise), none with GET or HEAD.
    const body = method === 'GET' || method === 'HEAD' ? undefined : '{}';
    const sized = body === undefined ? headers : { ...headers, 'content-type': 'application/json', 'content-length': String(body.length) };
    const request = httpRequest({ host: '127.0.0.1', port, method, path, agent: false, headers: sized }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => (body += chunk));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, allow: response.headers.allow, body }));
    });
    request.on('error', reject);
    request.end(body);
  });
}

/** Runs one property, keeping its counterexample instead of stopping, so that one run names every defect. */
async function collect(failures: string[], property: () => Promise<void>): Promise<void> {
  try {
    await property();
  } catch (error) {
    const cause = (error as Error & { cause?: Error }).cause;
    const counterexample = String((error as Error).message).split('\n').find((line) => line.startsWith('Counterexample')) ?? String(error);
    failures.push(cause ? cause.message.split('\n')[0]! : counterexample);
  }
}

function isErrorBody(body: string): boolean {
  try {
    return typeof (JSON.parse(body) as { description_status?: unknown }).description_status === 'string';
  } catch {
    return false;
  }
}

for (const backend of testBackends().slice(0, 1)) {
  describe(`the API documents are as strict as the server (${backend.name})`, () => {
    let t: TestGateway;
    let token: string;
    let publicDoc: Document;
    let adminDoc: Document;
    before(async () => {
      t = await startTestGateway(backend);
      const partner = await t.addPartner();
      token = (await t.app.inject({ method: 'POST', url: '/api/v1/login/', payload: partner })).json().access_token;
      publicDoc = dereferenced((await t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as Document);
      adminDoc = dereferenced((await t.admin.inject({ method: 'GET', url: '/openapi.json' })).json() as Document);
    });
    after(() => t.close());

    it('when a request is what the public document calls valid, then it is never answered 400, 422 or 5xx', async () => {
      const failures: string[] = [];
      for (const [path, byMethod] of Object.entries(publicDoc.paths)) {
        for (const [method, operation] of Object.entries(byMethod)) {
          const bearer = operation.security?.some((requirement) => 'bearerAuth' in requirement) && operation.operationId !== 'logout';
          const auth = bearer ? fc.constantFrom<Record<string, string>>({}, { authorization: `Bearer ${token}` }) : fc.constant<Record<string, string>>({});
          await collect(failures, () => fc.assert(fc.asyncProperty(requests(path, method, operation, auth, { onlyValid: true }), (request) => checkValid(t.app, operation, request)), { numRuns: 60 }));
        }
      }
      assert.deepEqual(failures, []);
    });

    it('when a request is what the admin document calls valid, then it is never answered 400, 422 or 5xx', async () => {
      const auth = fc.constant({ authorization: `Bearer ${TEST_ADMIN_TOKEN}` });
      const failures: string[] = [];
      for (const [path, byMethod] of Object.entries(adminDoc.paths)) {
        for (const [method, operation] of Object.entries(byMethod)) {
          const numRuns = operation.operationId === 'rotateKey' ? 3 : 40;
          await collect(failures, () => fc.assert(fc.asyncProperty(requests(path, method, operation, auth, { onlyValid: true }), (request) => checkValid(t.admin, operation, request)), { numRuns }));
        }
      }
      assert.deepEqual(failures, []);
    });

    it('when a documented path is sent a method it does not serve (QUERY and unknown ones included), then 405 with Allow and the JSON error body, on both listeners', async () => {
      await t.app.listen({ host: '127.0.0.1', port: 0 });
      await t.admin.listen({ host: '127.0.0.1', port: 0 });
      const failures: string[] = [];
      for (const [app, doc, headers] of [[t.app, publicDoc, {}], [t.admin, adminDoc, { authorization: `Bearer ${TEST_ADMIN_TOKEN}` }]] as const) {
        const port = (app.server.address() as AddressInfo).port;
        for (const [path, byMethod] of Object.entries(doc.paths)) {
          const served = Object.keys(byMethod).map((method) => method.toUpperCase());
          if (served.includes('GET')) served.push('HEAD');
          const url = path.replace(/\{[^}]+\}/g, 'x');
          for (const method of [...ROUTABLE, ...UNKNOWN].filter((candidate) => !served.includes(candidate))) {
            const answer = await send(port, method, url, headers);
            const where = `${method} ${url} -> ${answer.status} Allow: ${answer.allow} ${answer.body.slice(0, 120)}`;
            if (answer.status !== 405 || answer.allow?.split(', ').sort().join() !== [...served].sort().join() || (method !== 'HEAD' && !isErrorBody(answer.body))) failures.push(where);
          }
        }
        // An unknown path stays a 404, whatever the method.
        for (const method of ['GET', 'QUERY', 'FOO']) {
          const answer = await send(port, method, '/no/such/path', headers);
          if (answer.status !== 404 || !isErrorBody(answer.body)) failures.push(`${method} /no/such/path -> ${answer.status} (a 404 expected)`);
        }
      }
      assert.deepEqual(failures, []);
    });
  });
}
