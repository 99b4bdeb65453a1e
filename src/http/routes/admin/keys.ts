import type { FastifyInstance } from 'fastify';
import { Type, type Static } from 'typebox';
import type { Gateway } from '../../../gateway.js';
import { errors } from '../../../errors.js';
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
const KidParams = Type.Object({ kid: Type.String({ minLength: 1, maxLength: 200 }) });

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
  /** Revocation: the key is dropped at once everywhere (see KeyStore.revoke); 404 for an unknown kid. */
  app.post('/admin/v1/keys/:kid/revoke', { config: { audit: 'key.revoke' }, schema: { params: KidParams, response: { 200: KeyView, ...errorResponses } } }, async (request) => {
    const { kid } = request.params as Static<typeof KidParams>;
    const key = await gateway.keys.revoke(kid);
    if (!key) throw errors.notFound();
    request.auditDetails = { use: key.use, kid: key.kid };
    return key;
  });
}
