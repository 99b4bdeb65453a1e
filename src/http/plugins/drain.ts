import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { errors } from '../../errors.js';

/**
 * Graceful shutdown, the listener's part: once `close()` begins, a request that still reaches this instance
 * (on a keep-alive connection the load balancer had open) is answered 503 `shutting_down` with
 * `Connection: close` and `Retry-After: 1` before any work is done, so the balancer can safely send it to
 * another instance; requests already in flight run to the end. Fastify's own closing answer is turned off
 * (`return503OnClosing: false`) because its body is not in the partners' error format.
 */
export const drain = fp(
  async (app: FastifyInstance) => {
    let draining = false;
    app.addHook('preClose', async () => {
      draining = true;
    });
    app.addHook('onRequest', async () => {
      if (draining) throw errors.shuttingDown();
    });
  },
  { name: 'drain', fastify: '5.x', dependencies: ['error-handler'] },
);
