import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { readBanksCredentials, type BanksQuery } from '../../auth/steps/read-banks-credentials.js';
import { listBanksForPartner } from '../../operations/list-banks-for-partner.js';
import { errors, texts } from '../../errors.js';
import type { Gateway } from '../../gateway.js';
import { ErrorBody, errorResponses, UNAVAILABLE_TEXTS } from './error-body.js';

export const BanksQuerySchema = Type.Object({
  partnerName: Type.Optional(Type.String({ description: 'Unique partner name (optional with a bearer token; must then name its partner)' })),
  partnerPassword: Type.Optional(Type.String({ description: 'The API password as a compact JWE (RSA-OAEP-256, A256GCM, iat and jti in the header)' })),
  useAuthByCert: Type.Optional(Type.String({ description: 'Must be Y: the password is encrypted' })),
});

export const BanksResponse = Type.Object({
  banks: Type.Array(Type.Object({ name: Type.String(), bic: Type.String({ pattern: '^04[0-9]{7}$' }) })),
});

export function banksPath(providerSegment: string): string {
  return `/partner/${providerSegment}/sbp/banks/`;
}

/**
 * POST /partner/{provider}/sbp/banks/: the SBP bank list, for a partner authenticated by its encrypted
 * password in the query string or by a bearer token.
 */
export async function banksRoutes(app: FastifyInstance, { gateway }: { gateway: Gateway }): Promise<void> {
  // The request has no body. Whatever a client sends with it (any Content-Type, an empty JSON body) is read
  // up to the body limit and ignored, so that no parser can refuse a well-formed banks request.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, _body, done) => done(null, undefined));

  const path = banksPath(gateway.config.PROVIDER_SEGMENT);
  app.post(
    path,
    {
      config: { audit: 'banks' },
      schema: {
        tags: ['Banks'],
        summary: 'The banks that can receive business-to-consumer SBP transfers',
        description:
          'Authenticate with `Authorization: Bearer <access_token>` (query parameters optional), or with all three query parameters, ' +
          '`partnerPassword` being the API password as a compact JWE (see the introduction). The request has no body; any Content-Type is accepted. ' +
          'Checks run in this order: 422 missing parameter, 422 not encrypted, 401, 403 blocked, 403 IP address, 403 reward type.',
        security: [{ bearerAuth: [] }, {}],
        querystring: BanksQuerySchema,
        response: {
          200: BanksResponse,
          ...errorResponses({
            401: [texts.unauthorized],
            403: [texts.blocked, texts.ipNotAllowed, texts.rewardTypeUnavailable],
            422: [
              errors.parameterMissing('partnerName').description,
              errors.parameterMissing('partnerPassword').description,
              errors.parameterMissing('useAuthByCert').description,
              texts.notEncrypted,
              errors.parameterInvalid('useAuthByCert').description,
            ],
            429: [errors.throttled(60).description],
            500: [texts.internal],
            503: UNAVAILABLE_TEXTS,
          }),
          '4xx': ErrorBody,
          '5xx': ErrorBody,
        },
      },
    },
    async (request, reply) => {
      const query = request.query as BanksQuery;
      if (query.partnerName) request.auditPartner = query.partnerName.slice(0, 256);
      const credentials = readBanksCredentials(query, request.headers.authorization);
      const body = await listBanksForPartner(credentials, request.ip, gateway, (login) => {
        request.auditPartner = login;
      });
      return reply.type('application/json; charset=utf-8').send(body);
    },
  );
  app.route({
    method: ['GET', 'PUT', 'PATCH', 'DELETE'],
    url: path,
    schema: { hide: true },
    handler: async () => {
      throw errors.methodNotAllowed('POST');
    },
  });
}
