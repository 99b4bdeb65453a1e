import { undeclaredControls, type AdminEndpoint } from '@partner-gateway/contract/admin-endpoint';
import { ErrorBody } from '@partner-gateway/contract/error-body';
import type { TSchema } from 'typebox';
import { PROPOSED } from './answer-submitted.js';

const errorResponses = { '4xx': ErrorBody, '5xx': ErrorBody };

type Defined<T> = Exclude<T, undefined>;
type SchemaPart<Name extends string, S> = [Defined<S>] extends [never] ? object : unknown extends S ? object : { [K in Name]: Defined<S> };

/** The Fastify schema of an endpoint, typed by its declaration so that the TypeBox type provider types the request. */
export type RouteSchemaOf<E extends AdminEndpoint> = {
  operationId: string;
  tags: string[];
  summary: string;
  description?: string;
  consumes?: string[];
  produces?: string[];
  security?: [];
  response: { [K in E['status']]: E['answer'] } & Record<string, unknown>;
} & SchemaPart<'params', E['params']> &
  SchemaPart<'querystring', E['querystring']> &
  SchemaPart<'body', E['body']>;

/**
 * A route's options from its contract declaration: method, path, permission, audit action and the OpenAPI
 * schema (a checked endpoint documents maker-checker's 202 and says so; a public one, that it needs no credential).
 * The route file adds only its handler. Throws for a change declared without its audit action, or neither checked
 * nor saying why not: the app does not build with such a route. `narrowed.body` is the schema this gateway
 * validates and documents in place of the declared one, when its settings narrow it (reward types from its
 * catalogue); its static type stays the declaration's.
 *
 * @example
 * ```ts
 * app.route({ ...routeOf(KEY_ENDPOINTS.list), handler: async () => ({ keys: await gateway.admin.keys.list() }) });
 * ```
 */
export function routeOf<const E extends AdminEndpoint>(endpoint: E, narrowed: { body?: TSchema } = {}) {
  const undeclared = undeclaredControls(endpoint);
  if (undeclared !== undefined) throw new Error(undeclared);
  const { method, path, permission, audit, selfService, fieldPermissions } = endpoint;
  const schema = {
    operationId: endpoint.operationId,
    tags: [...endpoint.tags],
    summary: endpoint.summary,
    ...(endpoint.description !== undefined ? { description: endpoint.description } : {}),
    ...(endpoint.params !== undefined ? { params: endpoint.params } : {}),
    ...(endpoint.querystring !== undefined ? { querystring: endpoint.querystring } : {}),
    ...(endpoint.file !== undefined ? { consumes: [...endpoint.file.consumes], body: { description: endpoint.file.description } } : {}),
    ...(endpoint.body !== undefined ? { body: narrowed.body ?? endpoint.body } : {}),
    ...(endpoint.produces !== undefined ? { produces: [...endpoint.produces] } : {}),
    // The document says the admin token is needed unless an operation says otherwise.
    ...(permission === 'public' ? { security: [] } : {}),
    response: { [endpoint.status]: endpoint.answer, ...(endpoint.checked !== undefined ? PROPOSED : {}), ...errorResponses },
  };
  return {
    method,
    url: path,
    config: { permission, ...(audit !== undefined ? { audit } : {}), ...(selfService !== undefined ? { selfService } : {}), ...(fieldPermissions !== undefined ? { fieldPermissions } : {}) },
    schema: schema as unknown as RouteSchemaOf<E>,
  };
}
