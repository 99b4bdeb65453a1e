import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { errors } from '../../errors.js';
import { parseClientAddress } from '../../partners/ip-allowlist.js';

/**
 * Refuses (400) a request whose client address cannot be read as one address: what a trusted proxy put in
 * X-Forwarded-For in the deprecated IPv4-compatible form (`::10.0.0.1`), with a zone id (`fe80::1%eth0`), in a
 * legacy IPv4 form, or not an address at all. Such an address has no reading every component agrees on (one
 * library took `::10.0.0.1` for 10.0.0.1, inside 10.0.0.0/8), so no allowlist or counter may see it; falling
 * back to the proxy's own address instead would pin every such caller's failures on the proxy.
 */
export const clientAddress = fp(
  async (app: FastifyInstance) => {
    app.addHook('onRequest', async (request) => {
      if (parseClientAddress(request.ip) === null) {
        request.log.warn({ reason: 'unreadable_client_address' }, 'refused a request whose client address cannot be read');
        throw errors.badRequest();
      }
    });
  },
  { name: 'client-address', fastify: '5.x' },
);
