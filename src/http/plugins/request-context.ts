import { randomUUID } from 'node:crypto';
import { TLSSocket } from 'node:tls';
import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { REQUEST_ID_REGEXP } from '@partner-gateway/contract/patterns';
import { errors } from '../../errors.js';
import { parseClientAddress } from '../../partners/ip-allowlist.js';
import type { RequestContext } from '../../request-context.js';
import type { AuditAction } from '@partner-gateway/contract/audit-names';
import type { FastifyReply } from 'fastify';
import type { AuditWriter } from '../../audit/audit-writer.js';
import { createCertificateReader, type CertificateSource } from './certificate-reader.js';
import { readPortalSessionCookie } from '../session-cookie.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** What the operations get: built by this plugin before any route runs (see RequestContext). */
    requestContext: RequestContext;
  }
  interface FastifyContextConfig {
    /** Which audited action a route is (login, banks, partner.update...); routes without one are not audited. */
    audit?: AuditAction;
  }
}

export interface RequestContextOptions {
  /** The public base URL partners address this listener by (PUBLIC_URL), without a trailing slash. */
  baseUrl: string;
  /** The HTTPS listener's public base URL (TLS_PORT: PUBLIC_TLS_URL, else its loopback address): a request over TLS was addressed to it. */
  tlsBaseUrl?: string | undefined;
  /** Other public base URLs of the plain listener (a proxy's mutual-TLS alias forwarded to it; see RequestContext). */
  baseUrlAliases?: readonly string[] | undefined;
  /**
   * The DPoP nonce to send now (DPOP_NONCE=required), or undefined: every answer to a request that carries a
   * DPoP proof or a DPoP-scheme token gets it as `DPoP-Nonce` (RFC 9449 section 8.2), refusals included.
   */
  dpopNonce?: (() => string | undefined) | undefined;
  /** Where client certificates come from; absent on the admin listener, which takes none. */
  certificates?: CertificateSource;
  /** True on the public listener: a client address that cannot be read as one address is refused (400). */
  checkClientAddress?: boolean;
  /** True on the public listener: the partner portal's session cookie, CSRF header and origin become `browser`. */
  portalSessions?: boolean;
  /** The audit trail: while it is full (AUDIT_QUEUE_MAX entries wait for the database), audited calls are refused. */
  auditTrail: Pick<AuditWriter, 'full'>;
}

/**
 * The edge: one hook before any route builds `request.requestContext` from the raw request, and refuses, in this
 * order and before any work is done, a request reaching an instance that is shutting down (503 `shutting_down`,
 * so a load balancer can retry it elsewhere), one whose client address cannot be read (400), and an audited call
 * while the audit trail is backed up (503). A second hook gives every response its `X-Request-Id` (see
 * `requestIdOf`) and its security headers, and an answer to a request carrying DPoP its `DPoP-Nonce` when nonces
 * are required.
 *
 * A client address a trusted proxy reports in a form nobody reads alike (IPv4-compatible `::10.0.0.1`, a zone id,
 * a legacy IPv4 form) is refused rather than attributed to the proxy: one library read `::10.0.0.1` as 10.0.0.1.
 * Fastify's own 503 on closing is off (`return503OnClosing: false`) because its body is not in the partners'
 * error format.
 */
export const requestContext = fp<RequestContextOptions>(
  async (app: FastifyInstance, options) => {
    let draining = false;
    const readCertificate = options.certificates ? createCertificateReader(options.certificates) : undefined;
    app.decorateRequest('requestContext', null as unknown as RequestContext);
    app.addHook('preClose', async () => {
      draining = true;
    });
    // An async hook, unlike the others: a request Node's parser finds malformed after its headers (a broken chunk)
    // must meet the parser's 400 before a route's content-type check could answer it, which a hook finishing
    // synchronously inside the parser's headers callback would let happen.
    app.addHook('onRequest', async (request) => {
      const overTls = request.raw.socket instanceof TLSSocket;
      const context: { -readonly [K in keyof RequestContext]: RequestContext[K] } = {
        requestId: request.id,
        clientAddress: request.ip,
        authorization: request.headers.authorization,
        dpop: request.headers.dpop,
        certificate: undefined,
        // The HTTPS listener serves this same app: a DPoP proof there names its URL, never the plain one.
        baseUrl: overTls && options.tlsBaseUrl !== undefined ? options.tlsBaseUrl : options.baseUrl,
        ...(!overTls && options.baseUrlAliases?.length ? { baseUrlAliases: options.baseUrlAliases } : {}),
        audit: {},
      };
      request.requestContext = context;
      if (draining) throw errors.shuttingDown();
      if (options.checkClientAddress && parseClientAddress(request.ip) === null) {
        request.log.warn({ reason: 'unreadable_client_address' }, 'refused a request whose client address cannot be read');
        throw errors.badRequest();
      }
      // Only a TLS connection, or a proxy's header when one is configured, can carry a certificate: a plain request
      // on a listener without CLIENT_CERT_HEADER skips the reader.
      // Only a browser sends cookies: an API client's request never reads them.
      if (options.portalSessions && request.headers.cookie !== undefined) context.browser = browserOf(request);
      if (readCertificate && (overTls || options.certificates?.header !== undefined)) context.certificate = readCertificate(request);
      if (options.auditTrail.full() && isAudited(request)) throw errors.auditBacklog();
    });
    app.addHook('onSend', (request, reply, payload, done) => {
      reply.header(REQUEST_ID_HEADER, request.id);
      // An answer finished while the instance shuts down ends its connection: a kept-alive one would hold the
      // close for the whole keep-alive timeout (72 s), past an orchestrator's grace period.
      if (draining) reply.header('connection', 'close');
      if (options.dpopNonce && carriesDpop(request.requestContext)) {
        const nonce = options.dpopNonce();
        if (nonce !== undefined) reply.header('dpop-nonce', nonce);
      }
      // Nothing a partner receives should be stored or framed, unless a route chose a cache policy (the JWKS).
      reply.header('x-content-type-options', 'nosniff');
      reply.header('x-frame-options', 'DENY');
      reply.header('referrer-policy', 'no-referrer');
      if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
      done(null, payload);
    });
  },
  { name: 'request-context', fastify: '5.x', dependencies: ['error-handler'] },
);

/** What a browser presents for the portal: its session cookie, the CSRF header, and whether it names another origin than this host. */
function browserOf(request: FastifyRequest): RequestContext['browser'] {
  const csrf = request.headers['x-csrf-token'];
  return {
    sessionId: readPortalSessionCookie(request.headers.cookie),
    csrfToken: typeof csrf === 'string' ? csrf : undefined,
    crossOrigin: namesAnotherOrigin(request),
  };
}

/**
 * Whether a browser's request names an origin other than this listener's host (`Origin`): the second line of a
 * cookie session's CSRF defence, the console's and the portal's. A request without `Origin` names none.
 */
export function namesAnotherOrigin(request: FastifyRequest): boolean {
  const origin = request.headers.origin;
  if (origin === undefined) return false;
  try {
    return new URL(origin).host !== request.headers.host;
  } catch {
    return true;
  }
}

/**
 * Keeps an answer that carries a token out of every cache, HTTP/1.0 ones included (what NO_STORE_HEADERS in
 * routes/error-body.ts documents): every other answer already gets `Cache-Control: no-store` by default.
 */
export function noStore(reply: FastifyReply): void {
  reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
}

/** The header a caller may name its request by, and in which every answer names it (`request.id`). */
export const REQUEST_ID_HEADER = 'x-request-id';

/**
 * The request's id (Fastify's `genReqId`; Fastify's own `requestIdHeader` is off, as it takes any value): the
 * caller's `X-Request-Id` when it is 1 to 64 of `[A-Za-z0-9._-]` (REQUEST_ID_PATTERN), else a fresh UUID. A value
 * too long, with another character, or sent twice (Node joins repeats with ", ") is replaced, never refused and
 * never echoed, so that nothing a caller sends can split a log line or a header. A kept id is only the caller's
 * claim: it names the request in the log line, the answer and the audit entry, as given, and nothing else reads
 * it (the audit entry's partner and address say who called, whatever id it came with).
 *
 * @example
 * ```ts
 * requestIdOf({ headers: { 'x-request-id': 'acme-7f3c.1' } }); // 'acme-7f3c.1'
 * requestIdOf({ headers: { 'x-request-id': 'a b' } }); // a fresh UUID
 * ```
 */
export function requestIdOf(raw: { headers: IncomingHttpHeaders }): string {
  const given = raw.headers[REQUEST_ID_HEADER];
  return typeof given === 'string' && REQUEST_ID_REGEXP.test(given) ? given : randomUUID();
}

/** Whether the request's id is the one its caller sent (`requestIdOf` kept it) rather than a generated one. */
export function isCallersRequestId(request: Pick<FastifyRequest, 'id' | 'headers'>): boolean {
  return request.headers[REQUEST_ID_HEADER] === request.id;
}

/** A DPoP proof, or a token sent with the DPoP scheme (whose refusal asks for a proof). Null: refused before the context was built. */
function carriesDpop(context: RequestContext | null): boolean {
  return context !== null && (context.dpop !== undefined || /^dpop /i.test(context.authorization ?? ''));
}

/** `routeOptions` builds an object each time it is read: asked only while the trail is backed up. */
function isAudited(request: FastifyRequest): boolean {
  return request.routeOptions.config?.audit !== undefined;
}
