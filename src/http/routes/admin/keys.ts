import { KEY_ENDPOINTS } from '@partner-gateway/contract/admin-key-endpoints';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { Gateway } from '../../../gateway.js';
import { routeOf } from './admin-route.js';
import { answerChecked } from './answer-submitted.js';

/** The signing and encryption keys in service (never a private half), and their rotation. */
export async function adminKeyRoutes(untyped: FastifyInstance, { gateway }: { gateway: Gateway }): Promise<void> {
  const app = untyped.withTypeProvider<TypeBoxTypeProvider>();
  app.route({ ...routeOf(KEY_ENDPOINTS.list), handler: async () => ({ keys: await gateway.admin.keys.list() }) });
  app.route({
    ...routeOf(KEY_ENDPOINTS.rotate),
    handler: async (request, reply) => {
      const { use } = request.body;
      const key = await gateway.admin.keys.rotate(use);
      request.requestContext.audit.details = { use, kid: key.kid };
      return reply.code(201).send(key);
    },
  });
  /** Revocation: the key is dropped at once everywhere (see KeyStore.revoke); 404 for an unknown kid; may need approval. */
  app.route({
    ...routeOf(KEY_ENDPOINTS.revoke),
    handler: async (request, reply) => answerChecked(gateway, KEY_ENDPOINTS.revoke, { kid: request.params.kid }, request, reply),
  });
}
