import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { openApiDescription, type DescriptionSettings } from '../openapi-description.js';

export const OPENAPI_PATH = '/openapi.json';
export const DOCS_PATH = '/docs';

/**
 * The OpenAPI 3.1 document, generated from the route schemas (the same ones that validate requests and
 * serialize responses), served at /openapi.json, and the interactive reference at /docs. Swagger UI's
 * assets are served from the package itself: the page works without internet access.
 */
export const openApi = fp<DescriptionSettings & { version: string }>(
  async (app: FastifyInstance, { version, ...settings }) => {
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: { title: 'Partner Gateway: SBP payouts partner API', version, description: openApiDescription(settings) },
        tags: [
          { name: 'Authentication', description: 'Access tokens' },
          { name: 'Banks', description: 'Banks that receive SBP transfers' },
          { name: 'Keys', description: 'Public keys' },
          { name: 'Health', description: 'Probes' },
        ],
        components: {
          securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
        },
      },
    });
    await app.register(swaggerUi, { routePrefix: DOCS_PATH, staticCSP: true, uiConfig: { docExpansion: 'list', deepLinking: true } });
    app.get(OPENAPI_PATH, { schema: { hide: true } }, async () => app.swagger());
  },
  { name: 'openapi', fastify: '5.x' },
);
