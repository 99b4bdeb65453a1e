import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { errors } from '../../errors.js';

/**
 * Requires `Authorization: Bearer <ADMIN_TOKEN>` on every admin request. Both sides are hashed before the
 * constant-time comparison so that neither the token's content nor its length leaks through timing.
 */
export const adminAuth = fp<{ adminToken: string }>(
  async (app: FastifyInstance, { adminToken }) => {
    const expected = digest(adminToken);
    app.addHook('onRequest', async (request) => {
      const presented = /^Bearer +(\S+) *$/i.exec(request.headers.authorization ?? '')?.[1];
      if (presented === undefined || !timingSafeEqual(digest(presented), expected)) throw errors.adminUnauthorized();
    });
  },
  { name: 'admin-auth', fastify: '5.x', dependencies: ['error-handler'] },
);

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}
