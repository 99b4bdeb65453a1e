import fc from 'fast-check';
import { Value } from 'typebox/value';

/**
 * The request generator driven by the OpenAPI documents: fast-check arbitraries of the values, bodies and whole
 * requests a document calls valid. Shared by document-driven-requests.test.ts (answers stay inside the
 * document) and strict-documents.test.ts (the server refuses nothing the document calls valid).
 */

export type Schema = Record<string, unknown> & {
  type?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  enum?: unknown[];
  $ref?: string;
};
export interface Parameter {
  in: 'path' | 'query' | 'header';
  name: string;
  required?: boolean;
  schema: Schema;
}
export interface Operation {
  operationId: string;
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content: Record<string, { schema: Schema }> };
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
  security?: Array<Record<string, string[]>>;
}
export interface Document {
  paths: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Schema> };
}

export const FORM = 'application/x-www-form-urlencoded';

/**
 * The document with every `$ref` to `#/components/schemas/…` replaced by the schema it names, so that the
 * generator and `Value.Check` read each schema whole.
 */
export function dereferenced<T extends { paths: object; components?: { schemas?: Record<string, Schema> } }>(doc: T): T {
  const schemas = doc.components?.schemas ?? {};
  const resolve = (value: unknown, depth: number): unknown => {
    if (Array.isArray(value)) return value.map((item) => resolve(item, depth));
    if (value === null || typeof value !== 'object') return value;
    const ref = (value as { $ref?: unknown }).$ref;
    if (typeof ref === 'string' && ref.startsWith('#/components/schemas/')) {
      if (depth > 20) throw new Error(`${ref}: a reference cycle`);
      const { $ref: _ref, ...rest } = value as Record<string, unknown>;
      const target = schemas[ref.slice('#/components/schemas/'.length)];
      if (!target) throw new Error(`${ref} names no schema`);
      return resolve({ ...target, ...rest }, depth + 1);
    }
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, resolve(item, depth)]));
  };
  return { ...doc, paths: resolve(doc.paths, 0) as T['paths'] };
}

/** Values the schema calls valid; strings kept short and printable so that a failure reads well. */
export function valid(schema: Schema): fc.Arbitrary<unknown> {
  return generate(schema).filter((value) => Value.Check(schema, value));
}

function generate(schema: Schema): fc.Arbitrary<unknown> {
  if (schema.enum) return fc.constantFrom(...schema.enum);
  if ('const' in schema) return fc.constant(schema.const);
  if (schema.anyOf) return fc.oneof(...schema.anyOf.map(generate));
  switch (schema.type) {
    case 'string': {
      const min = (schema.minLength as number | undefined) ?? 0;
      const max = Math.min((schema.maxLength as number | undefined) ?? 24, 24);
      if (schema.format === 'date-time') {
        // Mostly ordinary instants; now and then the edges of what the format allows (year 0000, 9999, a leap second).
        return fc.oneof(
          { weight: 4, arbitrary: fc.date({ min: new Date('2000-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true }).map((date) => date.toISOString()) },
          { weight: 1, arbitrary: fc.constantFrom('0000-01-01T00:00:00Z', '9999-12-31T23:00:00-05:00', '2016-12-31T23:59:60Z', '0001-01-01T00:30:00+01:00') },
        );
      }
      // A random string is a UUID once in never: generated as one, or the filter of valid() never ends.
      if (schema.format === 'uuid') return fc.uuid();
      if (typeof schema.pattern === 'string') return fc.stringMatching(new RegExp(schema.pattern)).filter((text) => text.length <= ((schema.maxLength as number | undefined) ?? Infinity));
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
      return fc.array(generate(schema.items ?? {}), { minLength: (schema.minItems as number | undefined) ?? 0, maxLength: Math.min((schema.maxItems as number | undefined) ?? 3, 3) });
    case 'object': {
      const properties = schema.properties ?? {};
      return fc.record(Object.fromEntries(Object.entries(properties).map(([name, property]) => [name, generate(property)])), { requiredKeys: schema.required ?? [] });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

export interface GeneratedRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string;
  /** Whether every part of it is what the document calls valid. */
  documentValid: boolean;
}

/** Requests for one operation: documented path, query and body values (valid ones, and arbitrary JSON or text in place of the body). */
export function requests(path: string, method: string, operation: Operation, auth: fc.Arbitrary<Record<string, string>>, options: { onlyValid?: boolean } = {}): fc.Arbitrary<GeneratedRequest> {
  const parameters = operation.parameters ?? [];
  const pathValues = fc.record(Object.fromEntries(parameters.filter((p) => p.in === 'path').map((p) => [p.name, valid(p.schema).map(String).filter((text) => text.length > 0 && text !== '.' && text !== '..')])));
  // ('.' and '..' are dot-segments: a URL resolves them away before any server sees them.)
  const query = fc.record(Object.fromEntries(parameters.filter((p) => p.in === 'query').map((p) => [p.name, valid(p.schema).map(String)])), {
    requiredKeys: parameters.filter((p) => p.in === 'query' && p.required).map((p) => p.name),
  });
  const bodySchema = operation.requestBody?.content['application/json']?.schema;
  // The OAuth endpoints take form bodies (RFC 6749): valid forms, and arbitrary text in their place.
  const formSchema = operation.requestBody?.content[FORM]?.schema;
  const validWeight = options.onlyValid ? 1 : 4;
  const otherWeight = options.onlyValid ? 0 : 1;
  const body: fc.Arbitrary<{ value: unknown; documentValid: boolean; form?: boolean } | undefined> = bodySchema
    ? fc.oneof(
        { weight: validWeight, arbitrary: valid(bodySchema).map((value) => ({ value, documentValid: true })) },
        // The gateway refuses any body with a __proto__ or constructor key (prototype poisoning; api-documents.test.ts),
        // whatever the schema says of it: such a body is not one the document calls valid.
        { weight: otherWeight, arbitrary: fc.jsonValue({ maxDepth: 2 }).map((value) => ({ value, documentValid: Value.Check(bodySchema, value) && !hasPoisonKey(value) })) },
      )
    : formSchema
      ? fc.oneof(
          { weight: validWeight, arbitrary: valid(formSchema).map((value) => ({ value: new URLSearchParams(value as Record<string, string>).toString(), documentValid: true, form: true })) },
          { weight: otherWeight, arbitrary: fc.string({ maxLength: 40 }).map((value) => ({ value, documentValid: false, form: true })) },
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

/** True when a JSON value holds a `__proto__` or `constructor` key at any depth. */
export function hasPoisonKey(value: unknown): boolean {
  if (Array.isArray(value)) return value.some(hasPoisonKey);
  if (value === null || typeof value !== 'object') return false;
  return Object.keys(value).some((key) => key === '__proto__' || key === 'constructor' || hasPoisonKey((value as Record<string, unknown>)[key]));
}
