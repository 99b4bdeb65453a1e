import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { errors } from '../../errors.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A static file of the admin console (page or asset): served without the token, GET and HEAD only. */
    adminConsoleAsset?: boolean;
  }
}

/**
 * Requires `Authorization: Bearer <ADMIN_TOKEN>` on every admin request but the console's static files. Both
 * sides are hashed before the constant-time comparison so that neither the token's content nor its length
 * leaks through timing.
 */
export const adminAuth = fp<{ adminToken: string }>(
  async (app: FastifyInstance, { adminToken }) => {
    const expected = digest(adminToken);
    app.addHook('onRequest', async (request) => {
      if (isConsoleAsset(request)) return;
      const presented = /^Bearer +(\S+) *$/i.exec(request.headers.authorization ?? '')?.[1];
      if (presented === undefined || !timingSafeEqual(digest(presented), expected)) throw errors.adminUnauthorized();
    });
  },
  { name: 'admin-auth', fastify: '5.x', dependencies: ['error-handler'] },
);

/** Only the routes the console plugin marks, only to read them, and never anything under /admin/. */
function isConsoleAsset(request: FastifyRequest): boolean {
  return (
    request.routeOptions.config?.adminConsoleAsset === true &&
    (request.method === 'GET' || request.method === 'HEAD') &&
    !request.url.startsWith('/admin/')
  );
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}
