import type { FastifyInstance } from 'fastify';
import { errors } from '../../errors.js';
import type { Gateway } from '../../gateway.js';

export const JWKS_PATH = '/.well-known/jwks.json';

/**
 * The public keys (signing keys to verify access tokens, encryption keys to encrypt partnerPassword) and the
 * liveness and readiness probes.
 */
export async function wellKnownRoutes(app: FastifyInstance, { gateway }: { gateway: Gateway }): Promise<void> {
  app.get(JWKS_PATH, async (_request, reply) => {
    // Partners cache the key set; five minutes keeps a rotated key from being missed for long.
    reply.header('cache-control', 'public, max-age=300');
    return gateway.keys.jwks;
  });
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async () => {
    try {
      await gateway.database.ping(1_000);
    } catch {
      throw errors.notReady();
    }
    return { status: 'ready' };
  });
}
