import type { FastifyInstance, FastifyReply } from 'fastify';
import { Type } from 'typebox';
import { loginPartner, type Session } from '../../operations/login-partner.js';
import { errors, texts } from '../../errors.js';
import type { Gateway } from '../../gateway.js';
import { ErrorBody, errorResponses, UNAVAILABLE_TEXTS } from './error-body.js';

export const LOGIN_PATH = '/api/v1/login/';

export const LoginRequest = Type.Object(
  {
    // Both are required, but checked by the domain (in order, an empty value counting as omitted) so that
    // the answer is the seed's "A required parameter <name> was omitted" text.
    login: Type.Optional(Type.String({ maxLength: 256, description: 'Unique partner name (required)' })),
    password: Type.Optional(Type.String({ maxLength: 1024, description: 'Partner API password (required)' })),
  },
);

export const TokenResponse = Type.Object({
  access_token: Type.String({ description: 'JWT (RFC 9068, ES256) to send as Authorization: Bearer' }),
  token_type: Type.Literal('bearer'),
  expires_in: Type.Integer({ description: 'Token lifetime in seconds' }),
  refresh_token: Type.String({ description: 'Opaque, single-use: POST it to /api/v1/token/refresh/ for a new access token and a new refresh token' }),
  refresh_expires_in: Type.Integer({ description: 'Refresh token lifetime in seconds' }),
});

/** The token response body, and the headers that keep it out of every cache. */
export function sendSession(reply: FastifyReply, session: Session) {
  reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
  return {
    access_token: session.accessToken,
    token_type: 'bearer' as const,
    expires_in: session.expiresIn,
    refresh_token: session.refreshToken,
    refresh_expires_in: session.refreshExpiresIn,
  };
}

/** POST /api/v1/login/: login and API password in, a bearer access token out. */
export async function loginRoutes(app: FastifyInstance, { gateway }: { gateway: Gateway }): Promise<void> {
  // Only JSON bodies: Fastify's default text/plain parser would turn a form post into a string.
  app.removeContentTypeParser('text/plain');
  app.post(
    LOGIN_PATH,
    {
      config: { audit: 'login' },
      schema: {
        tags: ['Authentication'],
        summary: 'Log in: login and API password for a bearer access token',
        description:
          'Returns a JWT access token (RFC 9068, ES256) for `Authorization: Bearer`. When `expires_in` seconds have passed, log in again. ' +
          'An unknown login and a wrong password give the same 401; 403 answers come only once the password is right.',
        body: LoginRequest,
        response: {
          200: TokenResponse,
          ...errorResponses({
            400: [errors.malformedBody().description],
            401: [texts.unauthorized],
            403: [texts.blocked, texts.ipNotAllowed],
            413: [errors.payloadTooLarge().description],
            415: [errors.unsupportedMediaType('application/json').description],
            429: [errors.throttled(60).description],
            422: [errors.parameterMissing('login').description, errors.parameterMissing('password').description, errors.parameterInvalid('login').description],
            500: [texts.internal],
            503: UNAVAILABLE_TEXTS,
          }),
          '4xx': ErrorBody,
          '5xx': ErrorBody,
        },
      },
    },
    async (request, reply) => {
      request.auditPartner = claimedLogin(request.body);
      const session = await loginPartner((request.body ?? {}) as object, request.ip, gateway);
      return sendSession(reply, session);
    },
  );
  app.route({
    method: ['GET', 'PUT', 'PATCH', 'DELETE'],
    url: LOGIN_PATH,
    schema: { hide: true },
    handler: async () => {
      throw errors.methodNotAllowed('POST');
    },
  });
}

/** The login a request claims to be, for the audit trail (whether or not it proves it). */
function claimedLogin(body: unknown): string | undefined {
  const login = (body as { login?: unknown } | null)?.login;
  return typeof login === 'string' && login.length > 0 && login.length <= 256 ? login : undefined;
}
