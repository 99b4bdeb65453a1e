import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { AuditAction, AuthFailureReason } from '@partner-gateway/contract/audit-names';

declare module 'fastify' {
  interface FastifyRequest {
    /** Why authentication failed, for the log line; never sent to the client. */
    authFailure?: AuthFailureReason;
    /** The partner a request concerns (claimed or proven), for the audit trail. */
    auditPartner?: string;
    /** The error code of a refused request, for the audit trail. */
    errorCode?: string;
    /** What an admin change did (before and after, never a secret), for the audit trail. */
    auditDetails?: Record<string, unknown>;
  }
  interface FastifyContextConfig {
    /** Which audited action a route is (login, banks, partner.update...); routes without one are not audited. */
    audit?: AuditAction;
  }
}

/** Query parameters whose values are safe to log; every other value is replaced by `[REDACTED]`. */
const LOGGABLE_PARAMETERS = new Set(['partnerName', 'useAuthByCert', 'mode']);

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
 * One structured line per request, written when the response is sent: request id, method, redacted URL,
 * status, duration, client address and, for refused authentications, the reason code. Fastify's own
 * request logging is disabled so that no raw URL or header is ever logged.
 */
export const requestLog = fp(
  async (app: FastifyInstance) => {
    app.addHook('onResponse', (request: FastifyRequest, reply, done) => {
      if (!(request.log as unknown as { isLevelEnabled(level: string): boolean }).isLevelEnabled('info')) return done();
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
      done();
    });
  },
  { name: 'request-log', fastify: '5.x' },
);
