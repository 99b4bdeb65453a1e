import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { logoutSession } from '../../operations/logout-session.js';
import { refreshSession } from '../../operations/refresh-session.js';
import { errors, texts } from '../../errors.js';
import type { Gateway } from '../../gateway.js';
import { ErrorBody, errorResponses, UNAVAILABLE_TEXTS } from './error-body.js';
import { sendSession, TokenResponse } from './login.js';

export const REFRESH_PATH = '/api/v1/token/refresh/';
export const LOGOUT_PATH = '/api/v1/logout/';

const RefreshRequest = Type.Object({
  refresh_token: Type.Optional(Type.String({ maxLength: 256, description: 'The refresh token from the last login or refresh (required)' })),
});

/** Token refresh (single-use refresh tokens with reuse detection) and logout (revokes the token family). */
export async function sessionRoutes(app: FastifyInstance, { gateway }: { gateway: Gateway }): Promise<void> {
  app.removeContentTypeParser('text/plain');
  app.post(
    REFRESH_PATH,
    {
      config: { audit: 'refresh' },
      schema: {
        tags: ['Authentication'],
        summary: 'Refresh: a refresh token for a new access token and a new refresh token',
        description:
          'The presented refresh token is spent. Presenting a spent refresh token is refused and revokes every token of that login (RFC 9700 reuse detection): log in again.',
        body: RefreshRequest,
        response: {
          200: TokenResponse,
          ...errorResponses({
            401: [texts.unauthorized],
            403: [texts.blocked, texts.ipNotAllowed],
            422: [errors.parameterMissing('refresh_token').description],
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
      const session = await refreshSession((request.body ?? {}) as object, request.ip, gateway);
      request.auditPartner = session.partnerLogin;
      return sendSession(reply, session);
    },
  );
  app.post(
    LOGOUT_PATH,
    {
      config: { audit: 'logout' },
      schema: {
        tags: ['Authentication'],
        summary: 'Log out: the bearer token and every refresh token of its login stop working at once',
        security: [{ bearerAuth: [] }],
        response: { 204: Type.Null(), ...errorResponses({ 401: [texts.unauthorized], 500: [texts.internal], 503: UNAVAILABLE_TEXTS }), '4xx': ErrorBody, '5xx': ErrorBody },
      },
    },
    async (request, reply) => {
      request.auditPartner = await logoutSession(request.headers.authorization, gateway);
      return reply.code(204).send();
    },
  );
}
