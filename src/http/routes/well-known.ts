import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { errors } from '../../errors.js';
import type { Gateway } from '../../gateway.js';
import { errorResponses } from './error-body.js';

const JwksResponse = Type.Object({
  keys: Type.Array(
    Type.Object(
      {
        kid: Type.String(),
        use: Type.Union([Type.Literal('sig'), Type.Literal('enc')]),
        alg: Type.String({ description: 'ES256 (sig) or RSA-OAEP-256 (enc)' }),
        kty: Type.String(),
      },
      { additionalProperties: true },
    ),
  ),
});
const Status = Type.Object({ status: Type.String() });

export const JWKS_PATH = '/.well-known/jwks.json';

/**
 * The public keys (signing keys to verify access tokens, encryption keys to encrypt partnerPassword) and the
 * liveness and readiness probes.
 */
export async function wellKnownRoutes(app: FastifyInstance, { gateway }: { gateway: Gateway }): Promise<void> {
  app.get(JWKS_PATH, { schema: { tags: ['Keys'], summary: 'Public keys: sig keys verify access tokens, enc keys encrypt partnerPassword', response: { 200: JwksResponse } } }, async (_request, reply) => {
    // Partners cache the key set; five minutes keeps a rotated key from being missed for long.
    reply.header('cache-control', 'public, max-age=300');
    return gateway.keys.jwks();
  });
  app.get('/healthz', { schema: { tags: ['Health'], summary: 'Liveness: 200 while the process serves', response: { 200: Status } } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { tags: ['Health'], summary: 'Readiness: 200 while the database answers, 503 otherwise', response: { 200: Status, ...errorResponses({ 503: [errors.notReady().description] }) } } }, async () => {
    try {
      await gateway.database.ping(1_000);
    } catch {
      throw errors.notReady();
    }
    return { status: 'ready' };
  });
}
