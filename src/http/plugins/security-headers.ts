import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

/**
 * Headers every response carries: no MIME sniffing, no framing, no referrer, and `Cache-Control: no-store`
 * unless a route chose otherwise (the JWKS is cacheable; nothing else a partner receives should be stored).
 */
export const securityHeaders = fp(
  async (app: FastifyInstance) => {
    app.addHook('onSend', async (_request, reply, payload) => {
      reply.header('x-content-type-options', 'nosniff');
      reply.header('x-frame-options', 'DENY');
      reply.header('referrer-policy', 'no-referrer');
      if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
      return payload;
    });
  },
  { name: 'security-headers', fastify: '5.x' },
);
