import type { FastifyInstance } from 'fastify';
import { createHash } from 'node:crypto';
import fp from 'fastify-plugin';
import type { AuditWriter } from '../../audit/audit-writer.js';
import { errors } from '../../errors.js';

/**
 * Records one audit entry for every request to a route that names an `audit` action in its config: time,
 * partner, client address, outcome, status, reason code and request id, plus what an admin change did.
 * Secrets never reach it: the entry is built from what the routes chose to set, not from the request.
 */
export const auditTrail = fp<{ writer: AuditWriter }>(
  async (app: FastifyInstance, { writer }) => {
    // A call that cannot be audited is not served: when AUDIT_QUEUE_MAX entries wait for a database that does
    // not take them, audited calls are refused before doing anything (and, having done nothing, add no entry),
    // so a long outage neither exhausts memory nor serves calls the trail would miss.
    // Callback hooks, not async ones (no promise per call), and the cheap test first: `routeOptions` builds an
    // object each time it is read.
    app.addHook('onRequest', (request, _reply, done) => {
      if (writer.full() && request.routeOptions.config?.audit) return done(errors.auditBacklog());
      done();
    });
    app.addHook('onResponse', (request, reply, done) => {
      const action = request.routeOptions.config?.audit;
      if (!action || request.errorCode === 'audit_backlog') return done();
      const succeeded = reply.statusCode < 400;
      const counted = succeeded ? countedAs(action, request.headers.authorization, request.auditDetails) : undefined;
      writer.record({
        at: new Date(),
        action,
        outcome: succeeded ? 'success' : 'failure',
        status: reply.statusCode,
        partner: request.auditPartner ?? null,
        clientAddress: request.ip,
        reason: succeeded ? null : (request.authFailure ?? request.errorCode ?? null),
        requestId: request.id,
        details: counted?.details ?? request.auditDetails ?? null,
        ...(counted ? { aggregate: { key: counted.key } } : {}),
      });
      done();
    });
  },
  { name: 'audit-trail', fastify: '5.x' },
);

/**
 * How a successful call may share an entry with its like of the same second (createAuditWriter): a bearer banks
 * call by its token (a token makes thousands of calls); a client-credentials grant by how the client
 * authenticated and whether the token is bound (a partner may ask for a token per call: writing a row for each
 * cost the embedded database about 50 microseconds a grant). Everything else keeps an entry of its own.
 */
function countedAs(action: string, authorization: string | undefined, details: Record<string, unknown> | undefined): { key: string; details: Record<string, unknown> } | undefined {
  if (action === 'banks' && authorization !== undefined) {
    const token = tokenKey(authorization);
    return { key: token, details: { token } };
  }
  if (action === 'token' && details !== undefined) return { key: `${String(details.method)}\u0000${String(details.bound)}`, details };
  return undefined;
}

/** Keys of the tokens seen lately: a token makes thousands of calls, its hash is taken once (0.9 % of a bearer profile otherwise). */
const tokenKeys = new Map<string, string>();

/** Tells tokens apart in the audit trail without storing one: the first 16 hex digits of the header's SHA-256. */
function tokenKey(authorization: string): string {
  let key = tokenKeys.get(authorization);
  if (key === undefined) {
    // Bounded: a flood of distinct tokens empties it rather than growing it.
    if (tokenKeys.size >= 10_000) tokenKeys.clear();
    key = createHash('sha256').update(authorization).digest('hex').slice(0, 16);
    tokenKeys.set(authorization, key);
  }
  return key;
}
