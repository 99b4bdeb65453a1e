import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * Headers every response carries: no MIME sniffing, no framing, no referrer, and `Cache-Control: no-store`
 * unless a route chose otherwise (the JWKS is cacheable; nothing else a partner receives should be stored).
 */
export const securityHeaders = fp(
  async (app: FastifyInstance) => {
    // A callback hook, not an async one: no promise per response on the hottest path (see docs/performance.md).
    app.addHook('onSend', (_request, reply, payload, done) => {
      reply.header('x-content-type-options', 'nosniff');
      reply.header('x-frame-options', 'DENY');
      reply.header('referrer-policy', 'no-referrer');
      if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
      done(null, payload);
    });
  },
  { name: 'security-headers', fastify: '5.x' },
);
