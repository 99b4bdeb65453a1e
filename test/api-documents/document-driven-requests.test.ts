import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { Value } from 'typebox/value';
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

type Schema = Record<string, unknown> & { type?: string; properties?: Record<string, Schema>; required?: string[]; items?: Schema; anyOf?: Schema[]; enum?: unknown[] };
interface Parameter {
  in: 'path' | 'query' | 'header';
  name: string;
  required?: boolean;
  schema: Schema;
}
interface Operation {
  operationId: string;
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content: Record<string, { schema: Schema }> };
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
  security?: Array<Record<string, string[]>>;
}
interface Document {
  paths: Record<string, Record<string, Operation>>;
}

/** Values the schema calls valid; strings kept short and printable so that a failure reads well. */
function valid(schema: Schema): fc.Arbitrary<unknown> {
  if (schema.enum) return fc.constantFrom(...schema.enum);
  if ('const' in schema) return fc.constant(schema.const);
  if (schema.anyOf) return fc.oneof(...schema.anyOf.map(valid));
  switch (schema.type) {
    case 'string': {
      const min = (schema.minLength as number | undefined) ?? 0;
      const max = Math.min((schema.maxLength as number | undefined) ?? 24, 24);
      if (typeof schema.pattern === 'string') return fc.stringMatching(new RegExp(schema.pattern)).filter((text) => text.length <= ((schema.maxLength as number | undefined) ?? Infinity));
      if (schema.format === 'date-time') return fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true }).map((date) => date.toISOString());
      return fc.string({ minLength: min, maxLength: Math.max(min, max) });
    }
    case 'integer':
      return fc.integer({ min: (schema.minimum as number | undefined) ?? -1000, max: (schema.maximum as number | undefined) ?? 1000 });
    case 'number':
      return fc.double({ noNaN: true, noDefaultInfinity: true });
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(valid(schema.items ?? {}), { minLength: (schema.minItems as number | undefined) ?? 0, maxLength: Math.min((schema.maxItems as number | undefined) ?? 3, 3) });
    case 'object': {
      const properties = schema.properties ?? {};
      const record = fc.record(Object.fromEntries(Object.entries(properties).map(([name, property]) => [name, valid(property)])), { requiredKeys: schema.required ?? [] });
      return typeof schema.minProperties === 'number' ? record.filter((value) => Object.keys(value).length >= (schema.minProperties as number)) : record;
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

interface GeneratedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string;
  /** Whether every part of it is what the document calls valid. */
  documentValid: boolean;
}

function requests(path: string, method: string, operation: Operation, auth: fc.Arbitrary<Record<string, string>>): fc.Arbitrary<GeneratedRequest> {
  const parameters = operation.parameters ?? [];
  const pathValues = fc.record(Object.fromEntries(parameters.filter((p) => p.in === 'path').map((p) => [p.name, valid(p.schema).map(String).filter((text) => text.length > 0 && text !== '.' && text !== '..')])));
  // ('.' and '..' are dot-segments: a URL resolves them away before any server sees them.)
  const query = fc.record(Object.fromEntries(parameters.filter((p) => p.in === 'query').map((p) => [p.name, valid(p.schema).map(String)])), {
    requiredKeys: parameters.filter((p) => p.in === 'query' && p.required).map((p) => p.name),
  });
  const bodySchema = operation.requestBody?.content['application/json']?.schema;
  // The OAuth endpoints take form bodies (RFC 6749): valid forms, and arbitrary text in their place.
  const formSchema = operation.requestBody?.content[FORM]?.schema;
  const body: fc.Arbitrary<{ value: unknown; documentValid: boolean; form?: boolean } | undefined> = bodySchema
    ? fc.oneof(
        { weight: 4, arbitrary: valid(bodySchema).map((value) => ({ value, documentValid: true })) },
        // The gateway refuses any body with a __proto__ or constructor key (prototype poisoning; api-documents.test.ts),
        // whatever the schema says of it: such a body is not one the document calls valid.
        { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 2 }).map((value) => ({ value, documentValid: Value.Check(bodySchema, value) && !hasPoisonKey(value) })) },
      )
    : formSchema
      ? fc.oneof(
          { weight: 4, arbitrary: valid(formSchema).map((value) => ({ value: new URLSearchParams(value as Record<string, string>).toString(), documentValid: true, form: true })) },
          { weight: 1, arbitrary: fc.string({ maxLength: 40 }).map((value) => ({ value, documentValid: false, form: true })) },
        )
      : fc.constant(undefined);
  return fc.tuple(pathValues, query, body, auth).map(([params, search, generated, headers]) => {
    const url = path.replace(/\{([^}]+)\}/g, (_, name: string) => encodeURIComponent(String(params[name])));
    const queryString = new URLSearchParams(search as Record<string, string>).toString();
    return {
      method: method.toUpperCase(),
      url: queryString ? `${url}?${queryString}` : url,
      headers: generated ? { ...headers, 'content-type': generated.form ? FORM : 'application/json' } : headers,
      ...(generated ? { payload: generated.form ? (generated.value as string) : JSON.stringify(generated.value) } : {}),
      // A request without the body the document requires is not valid.
      documentValid: generated?.documentValid ?? operation.requestBody?.required !== true,
    };
  });
}

const FORM = 'application/x-www-form-urlencoded';

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
      const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as Document;
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
      const doc = (await t.admin.inject({ method: 'GET', url: '/openapi.json' })).json() as Document;
      const auth = fc.constant({ authorization: `Bearer ${TEST_ADMIN_TOKEN}` });
      for (const [path, byMethod] of Object.entries(doc.paths)) {
        for (const [method, operation] of Object.entries(byMethod)) {
          // Each rotation generates a key pair: a few are enough.
          const numRuns = operation.operationId === 'rotateKey' ? 3 : 25;
          await fc.assert(fc.asyncProperty(requests(path, method, operation, auth), (request) => check(t.admin, operation, request)), { numRuns });
        }
      }
    });
  });
}

/** True when a JSON value holds a `__proto__` or `constructor` key at any depth. */
function hasPoisonKey(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(hasPoisonKey);
  if (value === null || typeof value !== 'object') return false;
  return Object.keys(value).some((key) => key === '__proto__' || key === 'constructor' || hasPoisonKey((value as Record<string, unknown>)[key]));
}
