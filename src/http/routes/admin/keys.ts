import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import type { Gateway } from '../../../gateway.js';
import { ErrorBody } from '../error-body.js';

export const KeyView = Type.Object({
  kid: Type.String(),
  use: Type.Union([Type.Literal('sig'), Type.Literal('enc')]),
  alg: Type.String(),
  active: Type.Boolean(),
  createdAt: Type.String({ format: 'date-time' }),
  retiredAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  usableUntil: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
});

const RotateBody = Type.Object({ use: Type.Union([Type.Literal('sig'), Type.Literal('enc')]) }, { additionalProperties: false });
const errorResponses = { '4xx': ErrorBody, '5xx': ErrorBody };

/** The signing and encryption keys in service (never a private half), and their rotation. */
export async function adminKeyRoutes(app: FastifyInstance, { gateway }: { gateway: Gateway }): Promise<void> {
  app.get('/admin/v1/keys', { schema: { response: { 200: Type.Object({ keys: Type.Array(KeyView) }), ...errorResponses } } }, async () => {
    await gateway.keys.reload();
    return { keys: gateway.keys.list() };
  });
  app.post('/admin/v1/keys/rotate', { config: { audit: 'key.rotate' }, schema: { body: RotateBody, response: { 201: KeyView, ...errorResponses } } }, async (request, reply) => {
    const { use } = request.body as Static<typeof RotateBody>;
    const key = await gateway.keys.rotate(use);
    request.auditDetails = { use, kid: key.kid };
    reply.code(201);
    return key;
  });
}
