import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { nameSchemas } from './openapi-components.js';

const BANK = { title: 'Bank', type: 'object', properties: { bic: { type: 'string', pattern: '^04[0-9]{7}$' } } };
const json = (schema: unknown) => ({ content: { 'application/json': { schema } } });

describe('nameSchemas', () => {
  it('when two operations use one named schema, then components.schemas holds it once and both refer to it', () => {
    const named = nameSchemas({
      paths: { '/a': { get: { responses: { 200: json(BANK) } } }, '/b': { post: { requestBody: json(BANK), responses: { 201: json({ type: 'array', items: BANK }) } } } },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    });
    assert.deepEqual(named.components, { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } }, schemas: { Bank: BANK } });
    assert.deepEqual(named.paths, {
      '/a': { get: { responses: { 200: json({ $ref: '#/components/schemas/Bank' }) } } },
      '/b': { post: { requestBody: json({ $ref: '#/components/schemas/Bank' }), responses: { 201: json({ type: 'array', items: { $ref: '#/components/schemas/Bank' } }) } } },
    });
  });

  it('when a named schema holds another, then each is a component and the outer one refers to the inner one', () => {
    const list = { title: 'BankList', type: 'object', properties: { banks: { type: 'array', items: BANK } } };
    const named = nameSchemas({ paths: { '/a': { get: { responses: { 200: json(list) } } } } });
    assert.deepEqual(named.components.schemas, {
      Bank: BANK,
      BankList: { title: 'BankList', type: 'object', properties: { banks: { type: 'array', items: { $ref: '#/components/schemas/Bank' } } } },
    });
  });

  it('when a use carries its own description or examples, then they stay beside its $ref and the component keeps what every use shares', () => {
    const error = { title: 'ErrorBody', type: 'object', description: 'An error', properties: { description_status: { type: 'string' } } };
    const named = nameSchemas({
      paths: {
        '/a': {
          get: {
            responses: {
              401: json({ ...error, description: 'Unauthorized', examples: [{ description_status: 'no' }] }),
              '4xx': json(error),
              '5xx': json(error),
            },
          },
        },
      },
    });
    assert.deepEqual(named.components.schemas, { ErrorBody: { title: 'ErrorBody', type: 'object', properties: { description_status: { type: 'string' } } } });
    const responses = named.paths['/a'].get.responses;
    assert.deepEqual(responses[401].content['application/json'].schema, { $ref: '#/components/schemas/ErrorBody', description: 'Unauthorized', examples: [{ description_status: 'no' }] });
    assert.deepEqual(responses['4xx'].content['application/json'].schema, { $ref: '#/components/schemas/ErrorBody', description: 'An error' });
  });

  it('when two different schemas carry one name, then no document is made and the error names it', () => {
    const other = { ...BANK, properties: { bic: { type: 'string' } } };
    assert.throws(() => nameSchemas({ paths: { '/a': { get: { responses: { 200: json(BANK), 201: json(other) } } } } }), /two different schemas are named Bank/);
  });

  it('when two uses of a name differ only inside a schema they hold, then that is a difference too, whatever the order', () => {
    const outer = (description: string) => ({ title: 'Outer', type: 'object', properties: { bank: { ...BANK, description } } });
    for (const [first, second] of [['one', 'two'], ['two', 'one']]) {
      assert.throws(() => nameSchemas({ paths: { '/a': { get: { responses: { 200: json(outer(first!)), 201: json(outer(second!)) } } } } }), /two different schemas are named Outer/);
    }
  });

  it('when an example or an enum holds a title, then it names nothing', () => {
    const schema = { type: 'object', examples: [{ title: 'Bank', type: 'x' }], properties: { title: { type: 'string', enum: ['Bank'] } } };
    const named = nameSchemas({ paths: { '/a': { get: { responses: { 200: json(schema) } } } } });
    assert.deepEqual(named.paths['/a'].get.responses[200].content['application/json'].schema, schema);
    assert.deepEqual(named.components.schemas, {});
  });
});
