import { HEALTH_PATH, JWKS_PATH, READY_PATH } from '@partner-gateway/contract/paths';
import { ErrorBody } from '@partner-gateway/contract/error-body';
import { JwksResponse, ProbeStatus, ReadinessReport } from '@partner-gateway/contract/public-api';
import { VERSION_PATH, VersionResponse } from '@partner-gateway/contract/version';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { errors } from '../../errors.js';
import { GATEWAY_VERSION } from '../../version.js';
import type { Gateway } from '../../gateway.js';

/**
 * The public keys (signing keys to verify access tokens, encryption keys to encrypt partnerPassword), the
 * liveness and readiness probes, and the release.
 */
export async function wellKnownRoutes(app: FastifyInstance, { gateway }: { gateway: Gateway }): Promise<void> {
  const jwksHeaders = { 'Cache-Control': Type.String({ description: '`public, max-age=300`: fetch again after five minutes, or when a JWE is refused' }) };
  app.get(
    JWKS_PATH,
    { schema: { operationId: 'getJwks', tags: ['Keys'], summary: 'Public keys: sig keys verify access tokens, enc keys encrypt partnerPassword', security: [], response: { 200: { ...JwksResponse, headers: jwksHeaders }, '4xx': ErrorBody } } },
    async (_request, reply) => {
      // Partners cache the key set; five minutes keeps a rotated key from being missed for long.
      reply.header('cache-control', 'public, max-age=300');
      return gateway.partnerApi.jwks();
    },
  );
  app.get(HEALTH_PATH, { schema: { operationId: 'getHealth', tags: ['Health'], summary: 'Liveness: 200 while the process serves', security: [], response: { 200: ProbeStatus, '4xx': ErrorBody } } }, async () => ({ status: 'ok' }));
  app.get(
    VERSION_PATH,
    { schema: { operationId: 'getVersion', tags: ['Health'], summary: 'The gateway release: the version of @partner-gateway/client and @partner-gateway/contract released with it', security: [], response: { 200: VersionResponse, '4xx': ErrorBody } } },
    async () => ({ version: GATEWAY_VERSION }),
  );
  app.get(
    READY_PATH,
    {
      schema: {
        operationId: 'getReadiness',
        tags: ['Health'],
        summary: 'Readiness: each dependency\'s state; 200 ready or degraded (Redis down, served from the database), 503 not ready (the database down)',
        security: [],
        response: {
          200: ReadinessReport,
          '4xx': ErrorBody,
          503: { ...ReadinessReport, description: `\`not_ready\`: the database does not answer; while the instance shuts down, the error body \`${errors.shuttingDown().description}\`` },
        },
      },
      // The 503 is a readiness report or, from the edge while shutting down, an error body: each written as it is.
      serializerCompiler: () => (data) => JSON.stringify(data),
    },
    async (_request, reply) => {
      const report = await gateway.runtime.readiness();
      return reply.code(report.status === 'not_ready' ? 503 : 200).send(report);
    },
  );
}
