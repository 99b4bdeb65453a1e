import { KeyList, KeyView, KidParams, RotateKeyBody } from '@partner-gateway/contract/admin-keys';
import { ErrorBody } from '@partner-gateway/contract/error-body';
import { ADMIN_KEY_REVOKE_PATH, ADMIN_KEY_ROTATE_PATH, ADMIN_KEYS_PATH } from '@partner-gateway/contract/paths';
import type { FastifyInstance } from 'fastify';
import type { Gateway } from '../../../gateway.js';

const errorResponses = { '4xx': ErrorBody, '5xx': ErrorBody };
const tags = ['Keys'];

/** The signing and encryption keys in service (never a private half), and their rotation. */
export async function adminKeyRoutes(app: FastifyInstance, { gateway }: { gateway: Gateway }): Promise<void> {
  app.get(ADMIN_KEYS_PATH, { schema: { operationId: 'listKeys', tags, summary: 'The keys in service', response: { 200: KeyList, ...errorResponses } } }, async () => ({
    keys: await gateway.admin.keys.list(),
  }));
  app.post(
    ADMIN_KEY_ROTATE_PATH,
    { config: { audit: 'key.rotate' }, schema: { operationId: 'rotateKey', tags, summary: 'Make a new key active; the old one works for its grace period', body: RotateKeyBody, response: { 201: KeyView, ...errorResponses } } },
    async (request, reply) => {
      const { use } = request.body as RotateKeyBody;
      const key = await gateway.admin.keys.rotate(use);
      request.requestContext.audit.details = { use, kid: key.kid };
      return reply.code(201).send(key);
    },
  );
  /** Revocation: the key is dropped at once everywhere (see KeyStore.revoke); 404 for an unknown kid. */
  app.post(
    ADMIN_KEY_REVOKE_PATH,
    {
      config: { audit: 'key.revoke' },
      schema: { operationId: 'revokeKey', tags, summary: 'Drop a key at once: its tokens and JWEs are refused on every instance', params: KidParams, response: { 200: KeyView, ...errorResponses } },
    },
    async (request) => {
      const key = await gateway.admin.keys.revoke((request.params as KidParams).kid);
      request.requestContext.audit.details = { use: key.use, kid: key.kid };
      return key;
    },
  );
}
