import { LOGOUT_PATH, REFRESH_PATH } from '@partner-gateway/contract/paths';
import { RefreshRequest, TokenResponse } from '@partner-gateway/contract/public-api';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { errors, texts } from '../../errors.js';
import type { Gateway } from '../../gateway.js';
import { NO_STORE_HEADERS, partnerCallErrors } from './error-body.js';
import { sendSession } from './login.js';

/** Token refresh (single-use refresh tokens with reuse detection) and logout (revokes the token family). */
export async function sessionRoutes(untyped: FastifyInstance, { gateway }: { gateway: Gateway }): Promise<void> {
  const app = untyped.withTypeProvider<TypeBoxTypeProvider>();
  app.removeContentTypeParser('text/plain');
  app.post(
    REFRESH_PATH,
    {
      config: { audit: 'refresh' },
      schema: {
        operationId: 'refreshToken',
        tags: ['Authentication'],
        summary: 'Refresh: a refresh token for a new access token and a new refresh token',
        description:
          'The presented refresh token is spent. Presenting a spent refresh token is refused and revokes every token of that login (RFC 9700 reuse detection): log in again. ' +
          'A session started with a DPoP proof needs a proof by the same key (htu this URL) on every refresh.',
        security: [],
        body: RefreshRequest,
        response: {
          200: { ...TokenResponse, headers: NO_STORE_HEADERS },
          ...partnerCallErrors({
            400: [errors.malformedBody().description, errors.forbiddenKey().description],
            401: [texts.unauthorized],
            403: [texts.blocked, texts.ipNotAllowed],
            422: [errors.parameterMissing('refresh_token').description, errors.validationFailed([{ field: '<name>', message: 'is not a known field' }]).description],
            429: [errors.throttled(60).description],
          }),
        },
      },
    },
    async (request, reply) => sendSession(reply, await gateway.partnerApi.refresh(request.body, request.requestContext)),
  );
  // A 204 sends no body, which a typed reply cannot express: the route takes no input to type.
  untyped.post(
    LOGOUT_PATH,
    {
      config: { audit: 'logout' },
      schema: {
        operationId: 'logout',
        tags: ['Authentication'],
        summary: 'Log out: the bearer token and every refresh token of its login stop working at once',
        security: [{ bearerAuth: [] }, { dpopAuth: [] }],
        response: { 204: Type.Null({ description: 'Logged out' }), ...partnerCallErrors({ 401: [texts.unauthorized] }) },
      },
    },
    async (request, reply) => {
      await gateway.partnerApi.logout(request.requestContext);
      return reply.code(204).send();
    },
  );
}
