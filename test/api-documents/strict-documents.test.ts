import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { testBackends } from '../support/test-databases.js';
import { startTestGateway, TEST_ADMIN_TOKEN, type TestGateway } from '../support/test-gateway.js';
import { dereferenced, type Document } from './document-requests.js';
import { repeatedParameterFailures, unservedMethodFailures, validRequestRefusals } from './strict-check.js';

/**
 * The documents are as strict as the server: every request a document calls valid (its parameters, body and
 * form all within their schemas) is never refused for its shape (400, 422) nor fails (5xx), and every method a
 * documented path does not serve, QUERY and methods nobody knows included, is answered 405 with `Allow`. What
 * JSON Schema cannot say is listed in `UNEXPRESSIBLE` (strict-check.ts), each with the rule the document states in
 * words; the OAuth forms' one rule no schema can show, each parameter at most once, is checked against the words.
 * reintroduced-defects.test.ts shows these checks find each defect the issue lists, put back into a document.
 */

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
          failures.push(...(await validRequestRefusals(t.app, path, method, operation, auth, 60)));
        }
      }
      assert.deepEqual(failures, []);
    });

    it('when a request is what the admin document calls valid, then it is never answered 400, 422 or 5xx', async () => {
      const auth = fc.constant({ authorization: `Bearer ${TEST_ADMIN_TOKEN}` });
      const failures: string[] = [];
      for (const [path, byMethod] of Object.entries(adminDoc.paths)) {
        for (const [method, operation] of Object.entries(byMethod)) {
          const numRuns = ['rotateKey', 'backupDatabase'].includes(operation.operationId) ? 3 : 40;
          failures.push(...(await validRequestRefusals(t.admin, path, method, operation, auth, numRuns)));
        }
      }
      assert.deepEqual(failures, []);
    });

    it('when an OAuth form repeats a parameter, then it is refused as repeated, and the form and its 400 say so', async () => {
      const failures: string[] = [];
      for (const [path, byMethod] of Object.entries(publicDoc.paths)) {
        for (const [method, operation] of Object.entries(byMethod)) failures.push(...(await repeatedParameterFailures(t.app, path, method, operation, 20)));
      }
      assert.deepEqual(failures, []);
    });

    it('when a documented path is sent a method it does not serve (QUERY and unknown ones included), then 405 with Allow and the JSON error body, on both listeners', async () => {
      await t.app.listen({ host: '127.0.0.1', port: 0 });
      await t.admin.listen({ host: '127.0.0.1', port: 0 });
      const failures: string[] = [];
      for (const [app, doc, headers] of [[t.app, publicDoc, {}], [t.admin, adminDoc, { authorization: `Bearer ${TEST_ADMIN_TOKEN}` }]] as const) {
        failures.push(...(await unservedMethodFailures((app.server.address() as AddressInfo).port, doc, headers)));
      }
      assert.deepEqual(failures, []);
    });
  });
}
