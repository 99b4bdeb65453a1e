import { BACKUP_ENDPOINT } from '@partner-gateway/contract/admin-backup-endpoint';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { Gateway } from '../../../gateway.js';
import { routeOf } from './admin-route.js';

/**
 * The embedded database as one gzipped tar file, taken while the gateway serves; `partner-gateway restore`
 * puts it back. Audited (action database.backup, with its size); on PostgreSQL a 409 pointing to pg_dump.
 */
export async function adminBackupRoutes(untyped: FastifyInstance, { gateway }: { gateway: Gateway }): Promise<void> {
  const app = untyped.withTypeProvider<TypeBoxTypeProvider>();
  app.route({
    ...routeOf(BACKUP_ENDPOINT),
    handler: async (request, reply) => {
      const archive = await gateway.admin.backup();
      const bytes = Buffer.from(await archive.arrayBuffer());
      request.requestContext.audit.details = { bytes: bytes.length };
      const stamp = new Date(gateway.runtime.now()).toISOString().replace(/[:.]/g, '-');
      return reply.type('application/gzip').header('content-disposition', `attachment; filename="partner-gateway-${stamp}.tar.gz"`).send(bytes);
    },
  });
}
