import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { DOCS_PATH, OPENAPI_PATH } from '@partner-gateway/contract/paths';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { nameSchemas } from './openapi-components.js';

export interface OpenApiOptions {
  title: string;
  version: string;
  description: string;
  /** Where clients reach this listener (PUBLIC_URL for the partner API). */
  serverUrl: string;
  tags: Array<{ name: string; description: string }>;
  /** The credential the operations use, by name. */
  securitySchemes: Record<string, { type: 'http'; scheme: string; bearerFormat?: string; description?: string } | { type: 'apiKey'; in: 'cookie' | 'header'; name: string; description?: string }>;
  /** The credential every operation needs unless it says otherwise (the admin token); none by default. */
  security?: Array<Record<string, string[]>>;
  /** Marks the document and the docs page as readable without a credential (the admin listener's token). */
  withoutCredential?: boolean;
}

/**
 * An OpenAPI 3.1 document generated from the route schemas (the same ones that validate requests and
 * serialize responses, all from the contract, each contract schema named once under components.schemas: see
 * openapi-components.ts), served at /openapi.json, and the interactive reference at
 * /docs. Swagger UI's assets are served from the package itself: the page works without internet access.
 * Both hold no secret: on the admin listener they are served without the token, as the console's files are,
 * while every operation they describe still needs it.
 */
export const openApi = fp<OpenApiOptions>(
  async (app: FastifyInstance, options) => {
    if (options.withoutCredential) {
      app.addHook('onRoute', (route) => {
        if (route.url === OPENAPI_PATH || route.url === DOCS_PATH || route.url.startsWith(`${DOCS_PATH}/`)) {
          route.config = { ...route.config, adminConsoleAsset: true };
        }
      });
    }
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: { title: options.title, version: options.version, description: options.description },
        servers: [{ url: options.serverUrl }],
        tags: options.tags,
        ...(options.security ? { security: options.security } : {}),
        components: { securitySchemes: options.securitySchemes },
      },
      // The contract's named schemas (their title) become components.schemas, referred to by $ref.
      transformObject: (document) => ('openapiObject' in document ? nameSchemas(document.openapiObject) : document.swaggerObject),
    });
    await app.register(swaggerUi, { routePrefix: DOCS_PATH, staticCSP: true, uiConfig: { docExpansion: 'list', deepLinking: true } });
    app.get(OPENAPI_PATH, { schema: { hide: true } }, async () => app.swagger());
  },
  { name: 'openapi', fastify: '5.x' },
);
