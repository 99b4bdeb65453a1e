import { randomUUID } from 'node:crypto';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { PATTERN_PROBLEMS } from '@partner-gateway/contract/patterns';
import { AppError, errors, type ErrorDetail } from '../../errors.js';
import { createLogGate } from '../../logging/log-gate.js';

export interface ErrorHandlerOptions {
  /**
   * How schema violations read: `parameter` answers with the seed's one-parameter texts (public API);
   * `detailed` lists every offending field (admin API).
   */
  validation: 'parameter' | 'detailed';
}

/**
 * The one place errors become responses: always `{"description_status": "..."}` (plus `errors` when a list
 * of fields or rows is refused), never a stack trace. Only 5xx are logged, with the request's context: a
 * failure at error level with its cause, a 503 the gateway chose at warn (once per code every ten seconds);
 * 4xx are the client's business and show in the request log line.
 */
export const errorHandler = fp<ErrorHandlerOptions>(
  async (app: FastifyInstance, options) => {
    const mayLogRefusal = createLogGate(10_000);
    app.setErrorHandler((error: FastifyError, request, reply) => {
      const appError = toAppError(error, options.validation, request);
      if (error instanceof AppError && appError.status === 503) {
        // A 503 the gateway chose (busy, not ready, shutting down) is a state, not a fault: no stack trace, and
        // one line per code every ten seconds (each request still has its own request-log line).
        if (mayLogRefusal(appError.code)) request.log.warn({ code: appError.code, route: request.routeOptions.url }, 'request refused');
      } else if (appError.status >= 500) {
        request.log.error({ err: error, route: request.routeOptions.url }, 'request failed');
      }
      return sendError(reply, appError, request);
    });
    app.setNotFoundHandler((request, reply) => sendError(reply, errors.notFound(), request));
  },
  { name: 'error-handler', fastify: '5.x' },
);

export function sendError(reply: FastifyReply, error: AppError, request?: FastifyRequest): FastifyReply {
  if (request) {
    request.errorCode = error.code;
    if (error.extra.reason) request.authFailure = error.extra.reason;
  }
  for (const [name, value] of Object.entries(error.extra.headers ?? {})) reply.header(name, value);
  // The OAuth endpoints' errors carry RFC 6749's `error` and `error_description` too (OAuthErrorBody), so that
  // OAuth libraries and the seed's clients both read them.
  const body: { error?: string; error_description?: string; description_status: string; errors?: ErrorDetail[]; errorCount?: number } = error.extra.oauthError
    ? { error: error.extra.oauthError, error_description: error.extra.oauthDescription ?? error.description, description_status: error.description }
    : { description_status: error.description };
  if (error.extra.details) body.errors = error.extra.details;
  if (error.extra.errorCount !== undefined) body.errorCount = error.extra.errorCount;
  return reply.code(error.status).type('application/json; charset=utf-8').send(body);
}

/**
 * Answers the errors Fastify's router raises before any route or hook runs, which would otherwise get
 * Fastify's own body (`{"error", "code", "message", "statusCode"}`): a path with broken percent-encoding
 * (`/banks/%FF`) is a 400, a path parameter over `maxParamLength` a 414.
 */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (error.code === 'FST_ERR_BAD_URL') return sendError(reply, errors.badRequest(), request);
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    return sendError(reply, new AppError('uri_too_long', 414, errors.headersTooLarge().description), request);
  }
  request.log.error({ err: error }, 'request failed');
  return sendError(reply, errors.internal(), request);
}

function toAppError(error: FastifyError, validation: ErrorHandlerOptions['validation'], request: FastifyRequest): AppError {
  if (error instanceof AppError) return error;
  if (error.validation) return fromValidation(error, validation, request);
  switch (error.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return errors.unsupportedMediaType('application/json');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return errors.payloadTooLarge();
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return errors.malformedBody();
    case 'FST_ERR_ROUTE_MISSING_CONTENT_TYPE': {
      // Fastify refuses a QUERY without Content-Type (RFC 10008) before the route runs: where the path does
      // not serve QUERY at all, the answer is the 405 every other method gets, not a 400 about its body.
      const allow = request.routeOptions.config?.allow;
      if (allow !== undefined) return errors.methodNotAllowed(allow);
      break;
    }
  }
  // Values PostgreSQL cannot store or compare (a NUL byte, invalid UTF-8, a number beyond bigint) can only
  // come from the request: they are the client's error, not a failure of ours.
  if (typeof error.code === 'string' && CLIENT_DATA_ERRORS.has(error.code)) return errors.badRequest();
  // A parser's SyntaxError (a body the json-body plugin did not read) is the client's malformed body.
  if (error instanceof SyntaxError && error.statusCode === 400) return errors.malformedBody();
  if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
    return new AppError('bad_request', error.statusCode, errors.badRequest().description);
  }
  return errors.internal();
}

/** SQLSTATE codes of data exceptions caused by the values a request carried. */
const CLIENT_DATA_ERRORS = new Set(['22021', '22P05', '22003', '22P02', '22001']);

function fromValidation(error: FastifyError, mode: ErrorHandlerOptions['validation'], request: FastifyRequest): AppError {
  const details: ErrorDetail[] = (error.validation ?? []).map((issue) => {
    const missing = (issue.params as { missingProperty?: string; additionalProperty?: string } | undefined) ?? {};
    const path = issue.instancePath.replace(/^\//, '').replace(/\/(\d+)/g, '[$1]').replace(/\//g, '.');
    if (missing.missingProperty) return { field: join(path, missing.missingProperty), message: 'is required' };
    if (missing.additionalProperty) return { field: join(path, missing.additionalProperty), message: 'is not a known field' };
    const pattern = issue.keyword === 'pattern' ? PATTERN_PROBLEMS[String((issue.params as { pattern?: unknown }).pattern)] : undefined;
    // A value outside an enum (a reward type the catalogue lacks) is told the values there are.
    const allowed = issue.keyword === 'enum' ? (issue.params as { allowedValues?: unknown[] }).allowedValues : undefined;
    if (allowed) return { field: path || 'body', message: `must be one of: ${allowed.join(', ')}` };
    return { field: path || 'body', message: pattern ?? issue.message ?? 'is invalid' };
  });
  if (mode === 'parameter') {
    const refused = firstRefusedParameter(details, error.validationContext, request);
    if (refused) return refused;
  }
  return errors.validationFailed(details);
}

/**
 * The public API answers one parameter at a time, in the order the schema declares them (the seed's order:
 * login then password; partnerName, partnerPassword, useAuthByCert), as its operations check them: a
 * parameter absent, null or empty is "omitted", any other refused value is "invalid". Unknown fields come
 * after every known one and are listed together.
 */
function firstRefusedParameter(details: ErrorDetail[], context: string | undefined, request: FastifyRequest): AppError | undefined {
  const part = context === 'querystring' ? 'querystring' : context === 'body' ? 'body' : context === 'params' ? 'params' : undefined;
  const source = (part === 'querystring' ? request.query : part === 'body' ? request.body : part === 'params' ? request.params : undefined) as Record<string, unknown> | null | undefined;
  const schema = part ? (request.routeOptions.schema?.[part] as { properties?: Record<string, unknown> } | undefined) : undefined;
  const order = Object.keys(schema?.properties ?? {});
  // No body at all reads as every parameter omitted: the first one is reported, as the operations would.
  if (part === 'body' && (source === undefined || source === null) && order[0] !== undefined) return errors.parameterMissing(order[0]);
  const known = details
    .map((detail) => ({ detail, name: detail.field?.replace(/[[.].*$/, '') ?? '' }))
    .filter(({ detail, name }) => order.includes(name) && detail.message !== 'is not a known field')
    .sort((a, b) => order.indexOf(a.name) - order.indexOf(b.name));
  const first = known[0];
  if (first) {
    const value = source && typeof source === 'object' ? source[first.name] : undefined;
    return value === undefined || value === null || value === '' ? errors.parameterMissing(first.name) : errors.parameterInvalid(first.name);
  }
  const fallback = details[0];
  if (fallback?.field && fallback.field !== 'body' && fallback.message === 'is required') return errors.parameterMissing(fallback.field);
  return undefined;
}

function join(path: string, name: string): string {
  return path ? `${path}.${name}` : name;
}

/**
 * Answers errors Node's HTTP parser raises before Fastify sees a request (a request line or headers over
 * the size limit, a malformed request, a timeout) in the same JSON shape, then closes the connection. A method
 * the parser does not know (`FOO /api/v1/login/`) is answered as a route would answer it: 405 with `Allow` on a
 * known path (the listener's `allowedMethods`), 404 elsewhere. Fastify calls it with the listener as `this`.
 */
export function clientErrorHandler(this: FastifyInstance | undefined, error: Error & { code?: string; rawPacket?: unknown }, socket: Socket): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const appError =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? errors.headersTooLarge()
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? errors.requestTimeout()
        : error.code === 'HPE_INVALID_METHOD'
          ? unknownMethod(this, error.rawPacket)
          : errors.badRequest();
  const body = JSON.stringify({ description_status: appError.description });
  const headers = Object.entries(appError.extra.headers ?? {}).map(([name, value]) => `${name === 'allow' ? 'Allow' : name}: ${value}\r\n`);
  socket.end(
    `HTTP/1.1 ${appError.status} ${STATUS_CODES[appError.status]}\r\n` +
      headers.join('') +
      // No request was read, so no caller's id either: a fresh one, that every answer carries one.
      `X-Request-Id: ${randomUUID()}\r\n` +
      'Content-Type: application/json; charset=utf-8\r\n' +
      `Content-Length: ${Buffer.byteLength(body)}\r\n` +
      'Connection: close\r\n\r\n' +
      body,
  );
}

/** The answer to a method Node's parser refused: read the path from the request line, then 405 or 404. */
function unknownMethod(app: FastifyInstance | undefined, rawPacket: unknown): AppError {
  // (A Buffer, whatever Fastify's ConnectionError type says.)
  const head = Buffer.isBuffer(rawPacket) ? rawPacket.subarray(0, 8192).toString('latin1') : '';
  const target = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+ (\/\S*) HTTP\/1\.[01]\r?\n/.exec(head)?.[1];
  if (target === undefined || typeof app?.allowedMethods !== 'function') return errors.badRequest();
  const allow = app.allowedMethods(target);
  return allow ? errors.methodNotAllowed(allow) : errors.notFound();
}
