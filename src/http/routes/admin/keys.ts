import { KeyList, KeyView, KidParams, RotateKeyBody } from '@partner-gateway/contract/admin-keys';
import { ErrorBody } from '@partner-gateway/contract/error-body';
import { ADMIN_KEY_REVOKE_PATH, ADMIN_KEY_ROTATE_PATH, ADMIN_KEYS_PATH } from '@partner-gateway/contract/paths';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import type { Gateway } from '../../../gateway.js';
import { answerSubmitted, PROPOSED } from './answer-submitted.js';

const errorResponses = { '4xx': ErrorBody, '5xx': ErrorBody };
const tags = ['Keys'];

/** The signing and encryption keys in service (never a private half), and their rotation. */
export async function adminKeyRoutes(untyped: FastifyInstance, { gateway }: { gateway: Gateway }): Promise<void> {
  const app = untyped.withTypeProvider<TypeBoxTypeProvider>();
  app.get(ADMIN_KEYS_PATH, { config: { permission: 'read' }, schema: { operationId: 'listKeys', tags, summary: 'The keys in service', response: { 200: KeyList, ...errorResponses } } }, async () => ({
    keys: await gateway.admin.keys.list(),
  }));
  app.post(
    ADMIN_KEY_ROTATE_PATH,
    {
      config: { audit: 'key.rotate', permission: 'keys.write' },
      schema: { operationId: 'rotateKey', tags, summary: 'Make a new key active; the old one works for its grace period', body: RotateKeyBody, response: { 201: KeyView, ...errorResponses } },
    },
    async (request, reply) => {
      const { use } = request.body;
      const key = await gateway.admin.keys.rotate(use);
      request.requestContext.audit.details = { use, kid: key.kid };
      return reply.code(201).send(key);
    },
  );
  /** Revocation: the key is dropped at once everywhere (see KeyStore.revoke); 404 for an unknown kid; may need approval. */
  app.post(
    ADMIN_KEY_REVOKE_PATH,
    {
      config: { audit: 'key.revoke', permission: 'keys.write' },
      schema: {
        operationId: 'revokeKey',
        tags,
        summary: 'Drop a key at once: its tokens and JWEs are refused on every instance',
        description: 'Maker-checker action `key.revoke`: when it needs approval, the answer is 202 with a proposal.',
        params: KidParams,
        response: { 200: KeyView, ...PROPOSED, ...errorResponses },
      },
    },
    async (request, reply) => answerSubmitted(reply, await gateway.admin.approvals.submit('key.revoke', { kid: request.params.kid }, request.requestContext)),
  );
}
