import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { tailKey } from '../../cache/tail-key.js';
import type { AuthFailureReason } from '@partner-gateway/contract/audit-names';
import type { ActorRef } from '@partner-gateway/contract/admin-approvals';
import type { AuditWriter } from '../../audit/audit-writer.js';
import { actorRef, type Actor } from '../../request-context.js';
import { isCallersRequestId } from './request-context.js';
import type { GatewayMetrics, Listener } from '../../metrics/gateway-metrics.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Why authentication failed, for the log line, the metrics and the audit trail; never sent to the client. */
    authFailure?: AuthFailureReason;
    /** The error code of a refused request, for the audit trail. */
    errorCode?: string;
  }
}

export interface RequestOutcomeOptions {
  metrics: GatewayMetrics;
  listener: Listener;
  /** Where audited calls (routes whose config names an `audit` action) are recorded. */
  auditTrail: AuditWriter;
}

/** The `route` label of requests no route matched: one value, so that scanners cannot grow the label set. */
export const UNMATCHED_ROUTE = 'unmatched';

/** Query parameters whose values are safe to log; every other value is replaced by `[REDACTED]`. */
const LOGGABLE_PARAMETERS = new Set(['partnerName', 'useAuthByCert', 'mode']);

/**
 * What every answered request leaves behind, written in one hook when its response is sent: the redacted log line
 * (request id as `reqId`, method, URL, status, duration, client address, the reason of a refused authentication), the
 * metrics (the route's template, never the URL, whose query may carry a partnerPassword), and, for a route that
 * names an `audit` action, its audit entry. Secrets never reach any of them: the entry is built from what the
 * operation noted in `requestContext.audit`, not from the request. Fastify's own request logging is off.
 */
export const requestOutcome = fp<RequestOutcomeOptions>(
  async (app: FastifyInstance, { metrics, listener, auditTrail }) => {
    app.addHook('onResponse', (request, reply, done) => {
      if ((request.log as unknown as { isLevelEnabled(level: string): boolean }).isLevelEnabled('info')) {
        request.log.info(
          {
            method: request.method,
            url: redactUrl(request.url),
            status: reply.statusCode,
            durationMs: Math.round(reply.elapsedTime * 100) / 100,
            clientAddress: request.ip,
            ...(request.authFailure ? { authFailure: request.authFailure } : {}),
          },
          'request',
        );
      }
      // Fastify's routeOptions builds an object of the route's options each time it is read: read once.
      const { url, config } = request.routeOptions;
      metrics.observeRequest(listener, request.method, url ?? UNMATCHED_ROUTE, reply.statusCode, reply.elapsedTime / 1000);
      if (request.authFailure) metrics.countAuthFailure(listener, request.authFailure);
      const action = request.requestContext?.audit.action ?? config?.audit;
      // A call refused because the trail is backed up did nothing, and adds no entry.
      if (action && request.errorCode !== 'audit_backlog') record(auditTrail, request, action, reply.statusCode, listener);
      done();
    });
  },
  { name: 'request-outcome', fastify: '5.x' },
);

function record(auditTrail: AuditWriter, request: FastifyRequest, action: string, status: number, listener: Listener): void {
  const notes = request.requestContext?.audit ?? {};
  const succeeded = status < 400;
  // A call named by its caller (X-Request-Id) keeps an entry of its own, so that the audit search finds it by that id.
  const counted = succeeded && !isCallersRequestId(request) ? countedAs(action, request.headers.authorization, notes.details) : undefined;
  const aggregate = notes.aggregate ?? (counted ? { key: counted.key } : undefined) ?? (listener === 'admin' ? refusalCountedAs(request) : undefined);
  auditTrail.record({
    at: new Date(),
    action,
    outcome: succeeded ? 'success' : 'failure',
    status,
    partner: notes.partner ?? null,
    clientAddress: request.ip,
    reason: succeeded ? null : (request.authFailure ?? request.errorCode ?? null),
    requestId: request.id,
    details: counted?.details ?? notes.details ?? null,
    operator: notes.operator ?? operatorOf(request.requestContext?.actor),
    approver: notes.approver ?? null,
    ...(aggregate ? { aggregate } : {}),
  });
}

/**
 * An admin request refused because its address is locked out: counted per second with its like (whatever its
 * X-Request-Id), so that each refusal is accounted for without a flood of them writing a row each.
 */
function refusalCountedAs(request: FastifyRequest): { key: string } | undefined {
  return request.errorCode === 'throttled' && request.requestContext?.actor === undefined ? { key: 'throttled' } : undefined;
}

/** Who the entry names for an admin request: the actor (its id, name and credential); nobody on the partner API. */
function operatorOf(actor: Actor | undefined): ActorRef | null {
  return actor === undefined ? null : actorRef(actor);
}

/**
 * The request URL as it may appear in a log: the path, and the query string with every value redacted but
 * those known to be harmless. partnerPassword, tokens and anything unknown never reach a log line.
 */
export function redactUrl(url: string): string {
  const index = url.indexOf('?');
  if (index === -1) return url;
  const query = url
    .slice(index + 1)
    .split('&')
    .filter((pair) => pair.length > 0)
    .map((pair) => {
      const name = pair.split('=', 1)[0] ?? '';
      let decoded = name;
      try {
        decoded = decodeURIComponent(name);
      } catch {
        // A malformed name is logged as it came; its value is still redacted.
      }
      return LOGGABLE_PARAMETERS.has(decoded) ? pair : `${name}=[REDACTED]`;
    })
    .join('&');
  return `${url.slice(0, index)}?${query}`;
}

/**
 * How a successful call may share an entry with its like of the same second (createAuditWriter): a bearer banks
 * call by its token (a token makes thousands of calls); a client-credentials grant by how the client
 * authenticated and whether the token is bound (a partner may ask for a token per call: writing a row for each
 * cost the embedded database about 50 microseconds a grant). Everything else keeps an entry of its own, and so
 * does a call that came with its own X-Request-Id: the id a caller chose is one it means to look up.
 */
function countedAs(action: string, authorization: string | undefined, details: Record<string, unknown> | undefined): { key: string; details: Record<string, unknown> } | undefined {
  if (action === 'banks' && authorization !== undefined) {
    const token = tokenKey(authorization);
    return { key: token, details: { token } };
  }
  if (action === 'token' && details !== undefined) return { key: `${String(details.method)}\u0000${String(details.bound)}`, details };
  return undefined;
}

/**
 * Keys of the tokens seen lately, by the header's tail (tailKey: hashing the whole header was a share of every
 * bearer call): a token makes thousands of calls, its SHA-256 is taken once (0.9 % of a bearer profile otherwise).
 */
const tokenKeys = new Map<string, { authorization: string; key: string }>();

/** Tells tokens apart in the audit trail without storing one: the first 16 hex digits of the header's SHA-256. */
function tokenKey(authorization: string): string {
  const tail = tailKey(authorization);
  const known = tokenKeys.get(tail);
  if (known !== undefined && known.authorization === authorization) return known.key;
  // Bounded: a flood of distinct tokens empties it rather than growing it.
  if (tokenKeys.size >= 10_000) tokenKeys.clear();
  const key = createHash('sha256').update(authorization).digest('hex').slice(0, 16);
  tokenKeys.set(tail, { authorization, key });
  return key;
}
