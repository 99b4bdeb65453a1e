import type { Static, TSchema } from 'typebox';
import type { CheckedActionName } from './admin-approvals.js';
import type { Permission } from './admin-permissions.js';
import type { AuditAction } from './audit-names.js';

/** The methods the admin API serves. */
export type AdminMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A file sent as the body, as it is, with its type (an import). */
export interface AdminFile {
  bytes: unknown;
  contentType: string;
}

/** The query of a call: empty values (undefined, null, '') are left out of the URL. */
export type AdminQuery = Readonly<Record<string, string | number | boolean | null | undefined>>;

/**
 * One admin API endpoint, declared once in the contract. The server registers its route from it (schema,
 * permission, audit action, maker-checker's 202), the admin OpenAPI document describes it, the generic admin
 * client (createAdminApi) calls it, the CLI and the console call it through that client, and
 * docs/admin-operations.md lists it.
 *
 * @example
 * ```ts
 * export const revokeKey = adminEndpoint({
 *   method: 'POST', path: ADMIN_KEY_REVOKE_PATH, operationId: 'revokeKey', tags: ['Keys'],
 *   summary: 'Drop a key at once', params: KidParams, answer: KeyView,
 *   permission: 'keys.write', audit: 'key.revoke', checked: 'key.revoke', cli: 'keys revoke',
 *   send: (kid: string) => ({ params: { kid } }),
 * });
 * ```
 */
export interface AdminEndpoint {
  method: AdminMethod;
  /** The path, with `:name` for each parameter of `params`. */
  path: string;
  /** The operation's name in the OpenAPI document. */
  operationId: string;
  tags: readonly string[];
  summary: string;
  description?: string;
  params?: TSchema;
  querystring?: TSchema;
  /** The JSON body's schema; absent for a call without a body or one that sends a file (`file`). */
  body?: TSchema;
  /** The body is a file sent as it is, read by its own reader (documented, not validated by a schema). */
  file?: { description: string; consumes: readonly string[] };
  /** The status of a successful answer. */
  status: 200 | 201 | 204;
  /** The successful answer's schema (JSON), or a file's description (`answerAs`). */
  answer: TSchema;
  /** The answer is a file: `text` resolves with an AdminTextAnswer, `binary` with its bytes. */
  answerAs?: 'text' | 'binary';
  /** The answer's media types when it is not JSON. */
  produces?: readonly string[];
  /** What the caller needs (`public`: nobody needs a credential). */
  permission: Permission | 'public';
  /** The audited action; an endpoint without one is a read that leaves no entry. */
  audit?: AuditAction;
  /** The maker-checker action it submits: the answer may be 202 with a proposal instead. */
  checked?: CheckedActionName;
  /**
   * Why a change is not a maker-checker action, in words docs/admin-operations.md shows: every change is audited,
   * and either `checked` or says here why not (routeOf refuses to register one that does neither).
   */
  uncheckedBecause?: string;
  /** A call that changes nothing though its method is not GET (a preview computed on the server): no audit needed. */
  changesNothing?: true;
  /** Body fields that need a permission of their own (a partner's password beside its other settings). */
  fieldPermissions?: Readonly<Partial<Record<string, Permission>>>;
  /** The path parameter naming an operator: an operator acting on itself needs no `permission`. */
  selfService?: string;
  /** The words of the CLI command that makes this call (`bank pending approve` for `partner-gateway bank pending approve`), when there is one. */
  cli?: string;
  /** How the client's arguments become the call's parameters, query and body. */
  send(...args: never[]): AdminCallParts;
}

/** What a client call sends: the path's parameters, the query, and a JSON body or a file. */
export interface AdminCallParts {
  params?: Record<string, string | number>;
  query?: AdminQuery;
  body?: unknown;
  file?: AdminFile;
}

/** A file the admin API answered (an endpoint with `answerAs: 'text'`): its text and the bank list version it holds. */
export interface AdminTextAnswer {
  text: string;
  /** The `x-bank-list-version` header, when the answer carries one. */
  version: string | null;
}

type StaticOr<S, Otherwise> = S extends TSchema ? Static<S> : Otherwise;

/** What a call of `E` sends, as its schemas type it. */
export type PartsOf<E extends AdminEndpoint> = (E['params'] extends TSchema ? { params: Static<E['params']> } : { params?: undefined }) &
  (E['querystring'] extends TSchema ? { query?: Static<E['querystring']> } : { query?: undefined }) &
  (E['body'] extends TSchema ? { body: StaticOr<E['body'], never> } : { body?: undefined }) &
  (E['file'] extends object ? { file: AdminFile } : { file?: undefined });

/** What a successful call of `E` resolves with. */
export type AnswerOf<E extends AdminEndpoint> = E['answerAs'] extends 'text' ? AdminTextAnswer : E['answerAs'] extends 'binary' ? Uint8Array : E['status'] extends 204 ? void : Static<E['answer']>;

/**
 * Declares an endpoint, checking that its `send` builds what its schemas ask for.
 *
 * @example
 * ```ts
 * const listKeys = adminEndpoint({ method: 'GET', path: '/admin/v1/keys', operationId: 'listKeys', tags: ['Keys'],
 *   summary: 'The keys in service', status: 200, answer: KeyList, permission: 'read', send: () => ({}) });
 * ```
 */
export function adminEndpoint<const E extends AdminEndpoint>(endpoint: E & { send: (...args: never[]) => PartsOf<E> }): E {
  return endpoint;
}

/**
 * A path with its `:name` parameters filled in, each encoded.
 *
 * @example
 * ```ts
 * fillPath('/admin/v1/partners/:login/jwks', { login: 'a b' }); // '/admin/v1/partners/a%20b/jwks'
 * ```
 */
export function fillPath(path: string, params: Record<string, string | number> = {}): string {
  return path.replace(/:([A-Za-z]+)/g, (_segment, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`${path}: no value for :${name}`);
    return encodeURIComponent(String(value));
  });
}

/**
 * A path with query parameters, leaving out the empty ones.
 *
 * @example
 * ```ts
 * withQuery('/admin/v1/audit', { partner: 'acme', reason: '' }); // '/admin/v1/audit?partner=acme'
 * ```
 */
export function withQuery(path: string, query: AdminQuery = {}): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value !== undefined && value !== null && value !== '') search.set(name, String(value));
  const text = search.toString();
  return text ? `${path}?${text}` : path;
}

/**
 * Why `endpoint` cannot be registered, or undefined: a change (any method but GET) must name its audit action,
 * and either its maker-checker action or why it has none, so that no change skips the audit or the approval
 * settings by being declared without them.
 *
 * @example
 * ```ts
 * undeclaredControls({ ...rotateKey, audit: undefined }); // 'rotateKey changes data but declares no audit action'
 * ```
 */
export function undeclaredControls(endpoint: AdminEndpoint): string | undefined {
  if (endpoint.method === 'GET' || endpoint.permission === 'public' || endpoint.changesNothing) return undefined;
  if (endpoint.audit === undefined) return `${endpoint.operationId} changes data but declares no audit action`;
  if (endpoint.checked === undefined && endpoint.uncheckedBecause === undefined) return `${endpoint.operationId} changes data but is neither checked (maker-checker) nor says why not (uncheckedBecause)`;
  return undefined;
}
