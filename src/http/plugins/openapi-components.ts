/**
 * The contract names its schemas: each exported schema carries a `title` equal to its export name
 * (`export const Bank = Type.Object({...}, { title: 'Bank' })`). The OpenAPI document shows each named schema
 * once, as `components.schemas[title]`, and refers to it with `$ref` wherever an operation or another schema
 * uses it, so that generated clients (openapi-typescript) get `components["schemas"]["Bank"]` instead of an
 * anonymous type per operation. The route schemas themselves are untouched: Fastify validates and serializes
 * with the same objects as before, and only the document changes shape.
 */

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

/**
 * Keywords that describe a use of a schema without changing what it accepts or produces: where a named
 * schema is used with its own description or examples (a 401 body listing its texts), those stay beside the
 * `$ref`, which OpenAPI 3.1 allows.
 */
const ANNOTATIONS = new Set(['description', 'examples', 'example', 'deprecated']);

/** Keywords whose values are data, not schemas: a `title` inside an example names nothing. */
const DATA_KEYWORDS = new Set(['examples', 'example', 'default', 'enum', 'const']);

const PREFIX = '#/components/schemas/';

interface Use {
  /** The schema as the document had it, its uses of other names included. */
  schema: JsonObject;
  /** The same with each named schema inside it already replaced by its reference. */
  named: JsonObject;
  /** The object left in its place: its `$ref`, and any annotation of its own once every use is known. */
  reference: JsonObject;
}

/**
 * The document with every schema carrying a `title` moved to `components.schemas` under that title and
 * referred to by `$ref`. Every use of a name must be the same schema apart from its annotations; two different
 * schemas under one name are a contract error, thrown here so that the document is never written.
 *
 * @example
 * ```ts
 * nameSchemas({ paths: { '/b': { get: { responses: { 200: { content: { 'application/json': { schema: { title: 'Bank', type: 'object' } } } } } } } } });
 * // paths['/b'].get.responses[200].content['application/json'].schema is { $ref: '#/components/schemas/Bank' }
 * // components.schemas.Bank is { title: 'Bank', type: 'object' }
 * ```
 */
export function nameSchemas<T extends { paths?: unknown; components?: unknown }>(document: T): T & { components: { schemas: Record<string, Json> } } {
  const uses = new Map<string, Use[]>();
  const walk = (value: Json): Json => {
    if (Array.isArray(value)) return value.map(walk);
    if (value === null || typeof value !== 'object') return value;
    const node: JsonObject = {};
    for (const [key, item] of Object.entries(value)) node[key] = DATA_KEYWORDS.has(key) ? item : walk(item);
    if (typeof node.title !== 'string') return node;
    const reference: JsonObject = { $ref: `${PREFIX}${node.title}` };
    uses.set(node.title, [...(uses.get(node.title) ?? []), { schema: value as JsonObject, named: node, reference }]);
    return reference;
  };
  const components = (document.components ?? {}) as { schemas?: Record<string, Json> };
  const paths = walk(document.paths as Json);
  const existing = walk((components.schemas ?? {}) as Json) as JsonObject;
  const schemas: Record<string, Json> = { ...existing };
  for (const [name, named] of uses) {
    if (name in existing) throw new Error(`the schema name ${name} is used twice`);
    const [first] = named as [Use];
    // Compared whole, the schemas they name included, so that no use's difference is lost whatever the order.
    const other = named.find((use) => !equal(withoutAnnotations(use.schema), withoutAnnotations(first.schema)));
    if (other) throw new Error(`two different schemas are named ${name}: ${JSON.stringify(first.schema)} and ${JSON.stringify(other.schema)}`);
    // The annotations every use shares belong to the schema; the others to the use.
    const shared = Object.fromEntries(Object.entries(first.schema).filter(([key, item]) => ANNOTATIONS.has(key) && named.every((use) => key in use.schema && equal(use.schema[key]!, item))));
    schemas[name] = Object.fromEntries(Object.entries(first.named).filter(([key]) => !ANNOTATIONS.has(key) || key in shared));
    for (const use of named) Object.assign(use.reference, Object.fromEntries(Object.entries(use.schema).filter(([key]) => ANNOTATIONS.has(key) && !(key in shared))));
  }
  const sorted = Object.fromEntries(Object.keys(schemas).sort().map((name) => [name, schemas[name]!]));
  return { ...document, paths, components: { ...components, schemas: sorted } } as T & { components: { schemas: Record<string, Json> } };
}

function withoutAnnotations(schema: JsonObject): JsonObject {
  return Object.fromEntries(Object.entries(schema).filter(([key]) => !ANNOTATIONS.has(key)));
}

/** Whether two JSON values are the same (object keys in any order). */
function equal(a: Json, b: Json): boolean {
  if (a === b) return true;
  if (Array.isArray(a) || Array.isArray(b)) return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((item, i) => equal(item, b[i]!));
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return false;
  const keys = Object.keys(a);
  return keys.length === Object.keys(b).length && keys.every((key) => key in b && equal(a[key]!, b[key]!));
}
