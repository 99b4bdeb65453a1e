import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { Value } from 'typebox/value';
import { dereferenced, FORM, requests, type Document, type GeneratedRequest, type Operation } from './document-requests.js';
import { testBackends } from '../support/test-databases.js';
import { startTestGateway, TEST_ADMIN_TOKEN, type TestGateway } from '../support/test-gateway.js';

/**
 * A request generator driven by the OpenAPI documents themselves: for every operation of both listeners,
 * fast-check builds requests from the documented parameters and body schemas (valid ones, and arbitrary
 * JSON in place of the body), sends them, and checks the answer against the same document. What the
 * schemas cannot say (a password of at least 12 characters, an allowlist entry that is a CIDR, a banks
 * call needing either a bearer token or all three parameters) is answered with a documented 4xx, which the
 * properties allow; what they can say must hold exactly.
 */

/** An OAuth refusal of a form's shape: unparseable, a repeated parameter, a schema violation. */
function isShapeRefusal(operation: Operation, body: { error?: string; error_description?: string }): boolean {
  if (body.error !== 'invalid_request') return false;
  const description = body.error_description ?? '';
  const required = operation.requestBody?.content[FORM]?.schema.required ?? [];
  return / is (invalid|repeated)$|must be application\/x-www-form-urlencoded$/.test(description) || required.some((name) => description === `${name} is missing`);
}

/** The documented response for a status: the exact code, else its range (`4XX` as Fastify writes it). */
function documented(operation: Operation, status: number) {
  return operation.responses[String(status)] ?? operation.responses[`${String(status)[0]}XX`] ?? operation.responses[`${String(status)[0]}xx`];
}

async function check(app: FastifyInstance, operation: Operation, request: GeneratedRequest): Promise<void> {
  const response = await app.inject({ method: request.method as 'GET', url: request.url, headers: request.headers, ...(request.payload !== undefined ? { payload: request.payload } : {}) });
  const where = `${operation.operationId} ${request.method} ${request.url} ${request.payload ?? ''} -> ${response.statusCode} ${response.body.slice(0, 300)}`;
  assert.ok(response.statusCode < 500, `no 5xx: ${where}`);
  const answer = documented(operation, response.statusCode);
  assert.ok(answer, `a documented status: ${where}`);
  const schema = answer.content?.['application/json']?.schema;
  if (schema && response.statusCode !== 204) assert.ok(Value.Check(schema, response.json()), `a documented body: ${where}`);
  if (request.documentValid) {
    // A request the document calls valid is never refused for its shape. An OAuth endpoint answers 400 for
    // what RFC 6749 makes a 400 (an unsupported grant type, two client authentications, a bad DPoP proof);
    // only the form parser's and the schema's refusals are refusals of its shape there.
    const oauthRefusal = request.headers['content-type'] === FORM && response.statusCode === 400 && !isShapeRefusal(operation, response.json());
    assert.ok(oauthRefusal || ![400, 413, 415].includes(response.statusCode), `a valid request is not refused for its shape: ${where}`);
    if (response.statusCode === 422 && schema && 'examples' in schema) {
      const texts = (schema.examples as Array<{ description_status: string }>).map((example) => example.description_status);
      assert.ok(texts.includes(response.json().description_status), `a documented 422 text: ${where}`);
    }
  }
}

for (const backend of testBackends().slice(0, 1)) {
  describe(`requests generated from the OpenAPI documents (${backend.name})`, () => {
    let t: TestGateway;
    let partner: { login: string; password: string };
    let token: string;
    before(async () => {
      t = await startTestGateway(backend);
      partner = await t.addPartner();
      token = (await t.app.inject({ method: 'POST', url: '/api/v1/login/', payload: partner })).json().access_token;
    });
    after(() => t.close());

    it('the public document: no 5xx, no answer outside the document, no valid request refused for its shape', async () => {
      const doc = dereferenced((await t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as Document);
      for (const [path, byMethod] of Object.entries(doc.paths)) {
        for (const [method, operation] of Object.entries(byMethod)) {
          const bearer = operation.security?.some((requirement) => 'bearerAuth' in requirement);
          // Logout would end the session every other generated bearer request uses: it gets a token of its own.
          const auth = bearer
            ? fc.constantFrom<Record<string, string>>({}, { authorization: `Bearer ${operation.operationId === 'logout' ? 'not-a-token' : token}` })
            : fc.constant<Record<string, string>>({});
          // Login bodies sometimes carry the real credentials, so that the 200 and its schema are exercised.
          const generated =
            operation.operationId === 'login'
              ? fc.oneof(requests(path, method, operation, auth), fc.constant({ method: 'POST', url: path, headers: { 'content-type': 'application/json' }, payload: JSON.stringify(partner), documentValid: true }))
              : requests(path, method, operation, auth);
          await fc.assert(fc.asyncProperty(generated, (request) => check(t.app, operation, request)), { numRuns: 40 });
        }
      }
    });

    it('the admin document: no 5xx, no answer outside the document, no valid request refused for its shape', async () => {
      const doc = dereferenced((await t.admin.inject({ method: 'GET', url: '/openapi.json' })).json() as Document);
      const auth = fc.constant({ authorization: `Bearer ${TEST_ADMIN_TOKEN}` });
      for (const [path, byMethod] of Object.entries(doc.paths)) {
        for (const [method, operation] of Object.entries(byMethod)) {
          // Each rotation generates a key pair, each backup copies the database: a few are enough.
          const numRuns = ['rotateKey', 'backupDatabase'].includes(operation.operationId) ? 3 : 25;
          await fc.assert(fc.asyncProperty(requests(path, method, operation, auth), (request) => check(t.admin, operation, request)), { numRuns });
        }
      }
    });
  });
}
