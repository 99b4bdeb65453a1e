import { fillPath, withQuery, type AdminCallParts, type AdminEndpoint, type AdminFile, type AdminMethod, type AnswerOf } from './admin-endpoint.js';
import { ADMIN_ENDPOINTS, isEndpoint, type EndpointTree } from './admin-endpoints.js';

/** One admin API request, as a transport sends it: a JSON body, or a file sent as it is with its type. */
export interface AdminRequest {
  method: AdminMethod;
  path: string;
  json?: unknown;
  file?: AdminFile;
  /** The answer is a file, not JSON: the transport resolves with an AdminTextAnswer. */
  text?: true;
  /** The answer is a file: the transport resolves with its bytes (a Uint8Array) rather than parsed JSON. */
  binary?: boolean;
}

/**
 * Sends a request with the admin credential and resolves with the parsed JSON answer (undefined for a 204), or
 * rejects with the caller's own error for a refusal. A change that needs a second operator's approval answers
 * 202 with a proposal: each transport tells its caller so (the CLI prints the proposal, the console says where
 * it waits). The CLI's transport is Node's fetch with a personal token (or ADMIN_TOKEN); the console's is the
 * browser's fetch with the token of the tab or the session cookie.
 */
export type AdminTransport = (request: AdminRequest) => Promise<unknown>;

/**
 * The admin API, typed by the contract: the one client the CLI and the console call it through. Every method is an
 * endpoint of ADMIN_ENDPOINTS (its JSDoc there), taking what its `send` takes and resolving with its answer.
 *
 * @example
 * ```ts
 * const admin = createAdminApi(transport);
 * const partner = await admin.partners.update('acme', { status: 'blocked' });
 * ```
 */
export type AdminApi = ClientOf<typeof ADMIN_ENDPOINTS>;

export function createAdminApi(send: AdminTransport): AdminApi {
  return clientOf(ADMIN_ENDPOINTS, send);
}

/** The client of a tree of endpoint declarations: each endpoint a method taking its `send`'s arguments. */
export type ClientOf<T> = {
  [K in keyof T]: T[K] extends AdminEndpoint ? (...args: Parameters<T[K]['send']>) => Promise<AnswerOf<T[K]>> : ClientOf<T[K]>;
};

/** The request a call of `endpoint` sends, from the parts its `send` built. */
export function requestOf(endpoint: AdminEndpoint, parts: AdminCallParts): AdminRequest {
  return {
    method: endpoint.method,
    path: withQuery(fillPath(endpoint.path, parts.params), parts.query),
    ...(parts.body !== undefined ? { json: parts.body } : {}),
    ...(parts.file !== undefined ? { file: parts.file } : {}),
    ...(endpoint.answerAs === 'text' ? { text: true as const } : {}),
    ...(endpoint.answerAs === 'binary' ? { binary: true } : {}),
  };
}

/** The generic client of a tree: every method sends its endpoint's request through `send`. */
export function clientOf<T extends EndpointTree>(tree: T, send: AdminTransport): ClientOf<T> {
  const client: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(tree)) {
    client[name] = isEndpoint(value) ? (...args: never[]) => send(requestOf(value, value.send(...args))) : clientOf(value, send);
  }
  return client as ClientOf<T>;
}
