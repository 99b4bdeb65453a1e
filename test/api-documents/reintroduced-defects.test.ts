import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import Fastify from 'fastify';
import { testBackends } from '../support/test-databases.js';
import { startTestGateway, TEST_ADMIN_TOKEN, type TestGateway } from '../support/test-gateway.js';
import { dereferenced, FORM, type Document, type Operation, type Schema } from './document-requests.js';
import { repeatedParameterFailures, unservedMethodFailures, validRequestRefusals } from './strict-check.js';

/**
 * The document-driven checks (strict-check.ts) would have found each defect the issue lists. Each defect is put
 * back into a copy of the document the gateway serves, the server left as it is; the check that finds nothing
 * in the real document (shown here for the same operation) then finds the defect, naming the operation. The
 * last one, a method answered 404 instead of 405, is a server's defect: the check is run on a server without
 * the gateway's 405 plugin.
 */

interface Defect {
  /** What the issue found. */
  defect: string;
  listener: 'public' | 'admin';
  operationId: string;
  /** Puts the defect back into the operation, as documented. */
  reintroduce(operation: Operation): void;
  check: 'valid requests' | 'repeated parameter';
}

const body = (operation: Operation): Schema => (operation.requestBody!.content['application/json'] ?? operation.requestBody!.content[FORM])!.schema;
const parameter = (operation: Operation, name: string): Schema => operation.parameters!.find((candidate) => candidate.name === name)!.schema;

const DEFECTS: Defect[] = [
  {
    defect: "the token endpoint's grant_type is documented as any string",
    listener: 'public',
    operationId: 'oauthToken',
    reintroduce: (operation) => void (body(operation).properties!.grant_type = { type: 'string', minLength: 1 }),
    check: 'valid requests',
  },
  {
    defect: 'the admin audit limit is documented without its 1-1000 range',
    listener: 'admin',
    operationId: 'queryAudit',
    reintroduce: (operation) => void delete parameter(operation, 'limit').pattern,
    check: 'valid requests',
  },
  {
    defect: "a partner's password is documented without its 12-character minimum",
    listener: 'admin',
    operationId: 'createPartner',
    reintroduce: (operation) => void delete body(operation).properties!.password!.minLength,
    check: 'valid requests',
  },
  {
    defect: "a bank's bic is documented without its pattern in the path",
    listener: 'admin',
    operationId: 'editBank',
    reintroduce: (operation) => void delete parameter(operation, 'bic').pattern,
    check: 'valid requests',
  },
  {
    defect: "a bank's bic is documented without its pattern in the body",
    listener: 'admin',
    operationId: 'addBank',
    reintroduce: (operation) => void delete body(operation).properties!.bic!.pattern,
    check: 'valid requests',
  },
  {
    defect: 'the JWKS body is documented without maxProperties',
    listener: 'admin',
    operationId: 'setPartnerJwks',
    reintroduce: (operation) => void delete body(operation).maxProperties,
    check: 'valid requests',
  },
  {
    defect: "the OAuth endpoints' repeated-parameter rule is not documented",
    listener: 'public',
    operationId: 'oauthToken',
    // The words are the only place the rule can be: without them, the rule is undocumented.
    reintroduce: (operation) => {
      for (const part of [operation as { description?: string }, operation.requestBody as { description?: string }, body(operation)]) delete part.description;
      (operation.responses['400'] as { description: string }).description = '`invalid_request`';
    },
    check: 'repeated parameter',
  },
];

for (const backend of testBackends().slice(0, 1)) {
  describe(`the document-driven checks find each defect the issue lists (${backend.name})`, () => {
    let t: TestGateway;
    const documents: Partial<Record<'public' | 'admin', Document>> = {};
    before(async () => {
      t = await startTestGateway(backend);
      documents.public = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json() as Document;
      documents.admin = (await t.admin.inject({ method: 'GET', url: '/openapi.json' })).json() as Document;
    });
    after(() => t.close());

    /** The operation, read whole from a fresh copy of its listener's document. */
    function operationOf(defect: Defect): { path: string; method: string; operation: Operation } {
      const doc = dereferenced(structuredClone(documents[defect.listener]!));
      for (const [path, byMethod] of Object.entries(doc.paths)) {
        for (const [method, operation] of Object.entries(byMethod)) if (operation.operationId === defect.operationId) return { path, method, operation };
      }
      throw new Error(`no operation ${defect.operationId}`);
    }

    async function findings(defect: Defect, reintroduced: boolean): Promise<string[]> {
      const { path, method, operation } = operationOf(defect);
      if (reintroduced) defect.reintroduce(operation);
      const app = defect.listener === 'public' ? t.app : t.admin;
      if (defect.check === 'repeated parameter') return repeatedParameterFailures(app, path, method, operation, 20);
      const auth = fc.constant<Record<string, string>>(defect.listener === 'admin' ? { authorization: `Bearer ${TEST_ADMIN_TOKEN}` } : {});
      return validRequestRefusals(app, path, method, operation, auth, 100);
    }

    for (const defect of DEFECTS) {
      it(`when ${defect.defect}, then the check finds it, and nothing in the served document`, async () => {
        assert.deepEqual(await findings(defect, false), [], 'the real document');
        const found = await findings(defect, true);
        assert.equal(found.length, 1, 'the document with the defect');
        assert.match(found[0]!, new RegExp(defect.operationId));
      });
    }

    it('when a server answers QUERY on a documented path with 404 instead of 405 and Allow, then the check finds it', async () => {
      const bare = Fastify();
      bare.get('/thing', async () => ({}));
      await bare.listen({ host: '127.0.0.1', port: 0 });
      try {
        const found = await unservedMethodFailures((bare.server.address() as AddressInfo).port, { paths: { '/thing': { get: { operationId: 'getThing', responses: {} } } } }, {});
        assert.ok(found.some((failure) => /^QUERY \/thing -> 404/.test(failure)), found.join('\n'));
      } finally {
        await bare.close();
      }
    });
  });
}
